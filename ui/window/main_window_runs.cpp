// MainWindow's run tabs: launching the experiment, live and replayed dashboards, comparisons.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>

#include "base/experiment/experiment_document.h"
#include "base/run/run_files.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "base/targets/target_store.h"
#include "dashboard/run_dashboard.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "runs/compare_view.h"
#include "runs/runs_view.h"
#include "window/main_window.h"
#include "window/main_window_reports.h"

namespace moe::ui {

// The experiment as launched, kept beside the runs (the run directory gets the resolved copy).
QString MainWindow::writeLaunchConfig(QString* error) {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                      "/moe-studio/launched";
  QDir().mkpath(dir);
  const QString stamp = QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss-zzz");
  const QString path = dir + "/" + stamp + ".json";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    *error = tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
  }
  file.write(QByteArray::fromStdString(editor_->document()->json().dump(2)));
  return path;
}

Run* MainWindow::runExperiment() {
  if (!editor_->document()->isValid()) return nullptr;
  const Target target = targets_->current();
  const QString init_from = editor_->document()->initFrom();
  if (target.isRemote() && !init_from.isEmpty()) {
    QMessageBox::warning(this, tr("Cannot launch"),
                         tr("This experiment starts from the weights in %1, on this machine: run "
                            "it here, or copy the folder to %2 and start it there by hand "
                            "(Run ▸ Export Command Lines).")
                             .arg(init_from, target.name));
    return nullptr;
  }
  if (target.isRemote()) return runRemote(target);
  QString error;
  const QString config = writeLaunchConfig(&error);
  if (config.isEmpty()) {
    QMessageBox::warning(this, tr("Cannot launch"), error);
    return nullptr;
  }
  LaunchSpec spec;
  spec.config_file = config;
  spec.runs_root = runsRoot();
  spec.init_from = init_from;
  Run* run = runs_->startRun(spec);
  showRun(run);
  return run;
}

int MainWindow::addClosableTab(QWidget* page, const QString& title, int index) {
  index = tabs_->insertTab(index < 0 ? tabs_->count() : index, page, title);
  tabs_->setCurrentIndex(index);
  return index;
}

// The tab shows the run's id once run_start names it; a dashboard can ask to resume its run.
void MainWindow::followTitle(RunDashboard* dashboard) {
  connect(dashboard, &RunDashboard::titleChanged, this, [this, dashboard](const QString& title) {
    const int i = tabs_->indexOf(dashboard);
    if (i >= 0 && !title.isEmpty()) tabs_->setTabText(i, title);
  });
  connect(dashboard, &RunDashboard::resumeRequested, this, &MainWindow::resumeRun);
  connect(dashboard, &RunDashboard::whatIfRequested, this, &MainWindow::openCapture);
}

RunDashboard* MainWindow::showRun(Run* run) {
  // A resumed run takes the place of its directory's old tab.
  RunDashboard* old = run->runDir().isEmpty() ? nullptr : findDashboard(run->runDir());
  const int index = old ? tabs_->indexOf(old) : -1;
  if (old) {
    tabs_->removeTab(index);
    old->deleteLater();
  }
  auto* dashboard = new RunDashboard(run, tabs_);
  const QString title = run->runId().isEmpty() ? run->pendingName() : run->runId();
  addClosableTab(dashboard, title, index);
  followTitle(dashboard);
  return dashboard;
}

Run* MainWindow::resumeRun(const QString& run_dir) {
  Run* live = runs_->findByRunDir(run_dir);
  if (live && live->isActive()) return nullptr;
  // This session's run continues where it ran; a directory from elsewhere runs here.
  Run* run = live ? runs_->resumeRun(*live) : nullptr;
  if (!run) {
    LaunchSpec spec;
    spec.resume = true;
    spec.run_dir = run_dir;
    run = runs_->startRun(spec);
  }
  showRun(run);
  return run;
}

bool MainWindow::editRunConfig(const QString& run_dir) {
  // One row of the store, else the run's config.json (small): never its whole metrics.jsonl.
  std::optional<RunRecord> record = store_->isOpen() ? store_->find(run_dir) : std::nullopt;
  nlohmann::json config = record ? record->config : nlohmann::json::object();
  QString error;
  if (config.empty()) {
    const QString path = runFile(run_dir, run_layout::kConfig);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
      error = path + QStringLiteral(": ") + file.errorString();
    } else {
      config = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
      if (config.is_discarded() || !config.is_object()) {
        error = path + tr(": not a JSON object");
        config = nlohmann::json::object();
      }
    }
  }
  if (config.empty()) {
    QMessageBox::warning(this, tr("No config"),
                         tr("Cannot read the run's config.\n\n%1").arg(error));
    return false;
  }
  if (!editor_->fileActions()->maybeSave()) return false;
  editor_->document()->reset(config);
  tabs_->setCurrentWidget(editor_);
  return true;
}

RunDashboard* MainWindow::findDashboard(const QString& run_dir) const {
  const QString key = canonicalRunDir(run_dir);
  for (int i = 0; i < tabs_->count(); ++i) {
    auto* dashboard = qobject_cast<RunDashboard*>(tabs_->widget(i));
    if (dashboard && !dashboard->runDir().isEmpty() && canonicalRunDir(dashboard->runDir()) == key)
      return dashboard;
  }
  return nullptr;
}

void MainWindow::chooseRunDirectory() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open Run Directory"), settings.value("runs/open_dir", runsRoot()).toString());
  if (dir.isEmpty()) return;
  settings.setValue("runs/open_dir", QFileInfo(dir).path());
  openRunDirectory(dir);
}

RunDashboard* MainWindow::openRunDirectory(const QString& run_dir) {
  if (RunDashboard* open = findDashboard(run_dir)) {
    tabs_->setCurrentWidget(open);
    return open;
  }
  if (Run* live = runs_->findByRunDir(run_dir)) return showRun(live);
  if (!QFileInfo::exists(runFile(run_dir, run_layout::kMetrics))) {
    QMessageBox::warning(this, tr("Not a run directory"),
                         tr("%1 has no metrics.jsonl, so it holds no run to show.")
                             .arg(QDir::toNativeSeparators(run_dir)));
    return nullptr;
  }
  RunDashboard* dashboard = RunDashboard::replay(run_dir, tabs_);
  addClosableTab(dashboard, QFileInfo(run_dir).fileName());
  followTitle(dashboard);
  connect(dashboard, &RunDashboard::loadFailed, this, [this](const QString& error) {
    QMessageBox::warning(this, tr("Cannot read run"), error);
  });
  // Once replayed, the run is in the store (a foreign run copied in joins the list).
  connect(dashboard, &RunDashboard::replayFinished, this, [this, dashboard] {
    if (dashboard->series()->info().started)
      runs_view_->updateRun(summarizeSeries(*dashboard->series(), dashboard->runDir(), false));
  });
  return dashboard;
}

CompareView* MainWindow::compareRuns(const QStringList& run_dirs) {
  auto* view = new CompareView(tabs_);
  for (const QString& dir : run_dirs) {
    Run* live = runs_->findByRunDir(dir);
    if (live)
      view->addRun(live->runId(), live->series());
    else
      view->addRunDirectory(dir);
  }
  view->setProperty(kCompareRunDirsProperty, run_dirs);  // its report (main_window_reports.h)
  addClosableTab(view, tr("Compare (%1)").arg(run_dirs.size()));
  return view;
}

}  // namespace moe::ui

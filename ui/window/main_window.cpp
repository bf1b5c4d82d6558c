#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QFileInfo>

#include "experiment/experiment_document.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "launch/run_manager.h"
#include "window/run_panel.h"

namespace moe::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  runs_ = new RunManager(this);
  editor_ = new ExperimentEditor(this);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->setTabsClosable(true);
  tabs_->addTab(editor_, tr("Experiment"));
  tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);  // the editor stays
  // Closing a run's tab only closes the view: the RunManager keeps the run going.
  connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
    if (index > 0) tabs_->widget(index)->deleteLater();
  });
  setCentralWidget(tabs_);
  active_label_ = new QLabel(this);
  statusBar()->addPermanentWidget(active_label_);
  buildMenus();

  ExperimentDocument* doc = editor_->document();
  connect(doc, &ExperimentDocument::fileChanged, this, &MainWindow::updateTitle);
  connect(doc, &ExperimentDocument::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc, &ExperimentDocument::contentChanged, this, &MainWindow::updateRunAction);
  connect(editor_->fileActions(), &ExperimentFileActions::message, this,
          [this](const QString& text) { statusBar()->showMessage(text, 5000); });
  connect(runs_, &RunManager::activeCountChanged, this, [this](int active) {
    active_label_->setText(active ? tr("%n run(s) active", nullptr, active) : QString());
  });

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  if (!settings.contains("window/geometry")) resize(1366, 860);
  updateTitle();
  updateRunAction();
}

void MainWindow::buildMenus() {
  ExperimentFileActions* files = editor_->fileActions();
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(files->newAction());
  file->addMenu(files->presetMenu());
  file->addAction(files->openAction());
  file->addMenu(files->recentMenu());
  file->addSeparator();
  file->addAction(files->saveAction());
  file->addAction(files->saveAsAction());
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run_action_ = run->addAction(tr("▶  Run Experiment"), this, [this] { runExperiment(); });
  run_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run_action_->setToolTip(tr("Launch the experiment as a local moe-train run"));
  // Always in view, top right of the tabs: the one thing people come here to press.
  auto* run_button = new QToolButton(tabs_);
  run_button->setDefaultAction(run_action_);
  run_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  run_button->setStyleSheet(
      "QToolButton { background: #2563eb; color: white; font-weight: 600; padding: 4px 14px;"
      " border-radius: 4px; margin: 2px 6px; }"
      "QToolButton:disabled { background: #9ca3af; }"
      "QToolButton:hover { background: #1d4ed8; }");
  tabs_->setCornerWidget(run_button, Qt::TopRightCorner);
}

void MainWindow::updateTitle() {
  ExperimentDocument* doc = editor_->document();
  setWindowTitle(doc->displayName() + (doc->isModified() ? " *" : "") + " — MoE Studio");
}

void MainWindow::updateRunAction() {
  const bool ok = editor_->document()->isValid();
  run_action_->setEnabled(ok);
  run_action_->setStatusTip(ok ? tr("Launch the experiment locally")
                               : tr("Fix the experiment's problems to run it"));
}

QString MainWindow::runsRoot() {
  return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
         "/moe-studio/runs";
}

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

LocalRun* MainWindow::runExperiment() {
  if (!editor_->document()->isValid()) return nullptr;
  QString error;
  const QString config = writeLaunchConfig(&error);
  if (config.isEmpty()) {
    QMessageBox::warning(this, tr("Cannot launch"), error);
    return nullptr;
  }
  LaunchSpec spec;
  spec.config_file = config;
  spec.runs_root = runsRoot();
  LocalRun* run = runs_->startRun(spec);
  showRun(run);
  return run;
}

void MainWindow::showRun(LocalRun* run) {
  auto* panel = new RunPanel(run, tabs_);
  const int index = tabs_->addTab(panel, QFileInfo(run->spec().config_file).baseName());
  connect(run, &LocalRun::stateChanged, panel, [this, panel, run] {
    const int i = tabs_->indexOf(panel);
    if (i > 0 && !run->runId().isEmpty()) tabs_->setTabText(i, run->runId());
  });
  tabs_->setCurrentIndex(index);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!editor_->fileActions()->maybeSave()) {
    event->ignore();
    return;
  }
  if (runs_->hasActiveRuns()) {
    const auto answer = QMessageBox::question(
        this, tr("Runs still active"),
        tr("%n run(s) are still training. Stop them (each writes a checkpoint) and quit?",
           nullptr, static_cast<int>(runs_->activeRuns().size())));
    if (answer != QMessageBox::Yes) {
      event->ignore();
      return;
    }
    runs_->cancelAll();
  }
  QSettings().setValue("window/geometry", saveGeometry());
  event->accept();
}

}  // namespace moe::ui

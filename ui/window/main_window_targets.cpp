// MainWindow and targets: the target picker beside the Run button, the Targets dialog, launching
// the experiment on a remote target (a Slurm cluster's batch script shown before it is
// submitted), re-attaching remote runs at start-up, and fetching remote runs into the local store.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "base/experiment/experiment_document.h"
#include "base/remote/remote_fetch.h"
#include "base/remote/remote_run.h"
#include "base/remote/slurm_script.h"
#include "base/runs/run_manager.h"
#include "base/targets/target_store.h"
#include "experiment/experiment_editor.h"
#include "runs/runs_view.h"
#include "targets/targets_dialog.h"
#include "window/main_window.h"

namespace moe::ui {

namespace {

// Shows the batch script that will be submitted; true when the user submits it.
bool confirmBatchScript(QWidget* parent, const Target& target, const QString& script) {
  QDialog dialog(parent);
  dialog.setWindowTitle(QObject::tr("Submit to %1").arg(target.name));
  auto* layout = new QVBoxLayout(&dialog);
  const QString where =
      target.ssh.isLocal() ? QObject::tr("this machine") : target.ssh.destination();
  auto* intro = new QLabel(
      QObject::tr("On %1 (%2), a new run directory under %3 gets the config, then this batch "
                  "script is submitted with sbatch from it and saved with the run:")
          .arg(target.name, where, target.runs_root),
      &dialog);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* text = new QPlainTextEdit(script, &dialog);
  text->setReadOnly(true);
  text->setLineWrapMode(QPlainTextEdit::NoWrap);
  text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  layout->addWidget(text);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, &dialog);
  buttons->addButton(QObject::tr("Submit"), QDialogButtonBox::AcceptRole);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  layout->addWidget(buttons);
  dialog.resize(1000, 560);
  return dialog.exec() == QDialog::Accepted;
}

}  // namespace

QComboBox* MainWindow::buildTargetPicker(QWidget* parent) {
  auto* picker = new QComboBox(parent);
  picker->setObjectName(QStringLiteral("targetPicker"));
  picker->setToolTip(
      tr("Where Run starts the experiment: this machine, an SSH host or a Slurm "
         "cluster (Run ▸ Targets… to add one)"));
  picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto fill = [this, picker] {
    const QSignalBlocker block(picker);
    picker->clear();
    for (const Target& target : targets_->targets())
      picker->addItem(
          target.kind == Target::Kind::Local
              ? tr("this machine")
              : QStringLiteral("%1 (%2)").arg(target.name, Target::kindName(target.kind)),
          target.name);
    picker->setCurrentIndex(std::max(0, picker->findData(targets_->currentName())));
  };
  fill();
  connect(targets_, &TargetStore::changed, picker, fill);
  connect(targets_, &TargetStore::currentChanged, picker, fill);
  connect(picker, &QComboBox::activated, this, [this, picker](int index) {
    targets_->setCurrentName(picker->itemData(index).toString());
  });
  return picker;
}

void MainWindow::showTargetsDialog() {
  auto* dialog = new TargetsDialog(targets_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

Run* MainWindow::runRemote(const Target& chosen) {
  const ExperimentDocument* doc = editor_->document();
  const protocol::RunConfig& config = doc->config();
  Target target = chosen;
  RemoteLaunch launch;
  launch.config = QByteArray::fromStdString(doc->json().dump(2));
  launch.name = QString::fromStdString(config.name);
  launch.nproc = static_cast<int>(config.parallel.nproc);
  launch.local_runs_root = runsRoot();
  if (target.kind == Target::Kind::Slurm) {
    // The allocation is the run's layout: the engine checks one against the other.
    target.slurm.nodes = static_cast<int>(config.parallel.nodes);
    target.slurm.tasks_per_node = static_cast<int>(config.parallel.nproc);
    launch.batch_script = slurmBatchScript(target, launch.name, target.train_program);
    if (launch.batch_script.isEmpty()) {
      QMessageBox::warning(this, tr("Cannot submit"),
                           slurmScriptProblems(target).join(QLatin1Char('\n')));
      return nullptr;
    }
    if (!confirmBatchScript(this, target, launch.batch_script)) return nullptr;
  } else if (config.parallel.nodes > 1) {
    QMessageBox::warning(this, tr("Cannot launch"),
                         tr("%1 is one machine; parallel.nodes = %2 needs a Slurm cluster.")
                             .arg(target.name)
                             .arg(config.parallel.nodes));
    return nullptr;
  }
  launch.target = target;
  Run* run = runs_->startRemoteRun(std::move(launch));
  showRun(run);
  return run;
}

void MainWindow::reattachRemoteRuns() {
  connect(runs_, &RunManager::reattached, this, [this](const QList<Run*>& runs) {
    if (!runs.isEmpty())
      statusBar()->showMessage(
          tr("Re-attached %n remote run(s)", nullptr, static_cast<int>(runs.size())), 8000);
  });
  runs_->reattachRemoteRuns(runsRoot());
}

// One RemoteFetch per run; the Runs tab shows how each goes and re-reads the run when it is in.
void MainWindow::fetchRemoteRuns(const QStringList& run_dirs) {
  for (const QString& dir : run_dirs) {
    auto* fetch = new RemoteFetch(this);
    connect(fetch, &RemoteFetch::progress, runs_view_,
            [this, dir](const QString& text) { runs_view_->showFetchProgress(dir, text); });
    connect(fetch, &RemoteFetch::finished, this, [this, fetch, dir](bool ok, const QString& error) {
      fetch->deleteLater();
      runs_view_->showFetchResult(dir, ok, error);
    });
    // A run of this app writes its remote.json off the GUI thread: the fetch reads it after.
    if (auto* live = qobject_cast<RemoteRun*>(runs_->findByRunDir(dir)))
      live->whenRecordWritten(fetch, [fetch, dir] { fetch->start(dir); });
    else
      fetch->start(dir);
  }
}

}  // namespace moe::ui

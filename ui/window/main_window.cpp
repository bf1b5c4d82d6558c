#include "window/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>

#include "base/experiment/experiment_document.h"
#include "base/report/command_exports.h"
#include "base/runs/live_run_recorder.h"
#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "base/targets/target_store.h"
#include "experiment/estimates_panel.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "runs/runs_view.h"
#include "window/command_export_dialog.h"
#include "window/main_window_reports.h"

namespace moe::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  runs_ = new RunManager(this);
  targets_ = new TargetStore(this);
  editor_ = new ExperimentEditor(this);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->setTabsClosable(true);
  tabs_->setMovable(true);
  tabs_->addTab(editor_, tr("Experiment"));
  tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);  // the editor stays
  // Closing a run's tab only closes the view: the RunManager keeps the run going.
  connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
    QWidget* page = tabs_->widget(index);
    if (page != editor_ && page != runs_view_) page->deleteLater();
  });
  setCentralWidget(tabs_);
  active_label_ = new QLabel(this);
  statusBar()->addPermanentWidget(active_label_);
  openStore();
  buildProfilerTab();
  buildGenerateTab();
  buildMenus();
  buildRunButton();

  ExperimentDocument* doc = editor_->document();
  connect(doc, &ExperimentDocument::fileChanged, this, &MainWindow::updateTitle);
  connect(doc, &ExperimentDocument::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc, &ExperimentDocument::contentChanged, this, &MainWindow::updateRunAction);
  connect(editor_->fileActions(), &ExperimentFileActions::message, this,
          [this](const QString& text) { statusBar()->showMessage(text, 5000); });
  connect(runs_, &RunManager::activeCountChanged, this, [this](int active) {
    active_label_->setText(active ? tr("%n run(s) active", nullptr, active) : QString());
  });
  restoreLayout();
  updateTitle();
  updateRunAction();
  QTimer::singleShot(0, this, &MainWindow::reattachRemoteRuns);
}

MainWindow::~MainWindow() = default;

// The run store: opened at start, rescanned once the window is up (the runs root may hold runs
// from earlier sessions or copied in by hand).
void MainWindow::openStore() {
  store_ = std::make_unique<RunStore>(RunStore::defaultPath());
  QString error;
  if (!store_->open(&error)) {
    QTimer::singleShot(0, this, [this, error] {
      QMessageBox::warning(this, tr("Run store"),
                           tr("The list of runs cannot be opened; runs still work, but are "
                              "not listed.\n\n%1")
                               .arg(error));
    });
  }
  recorder_ = new LiveRunRecorder(runs_, this);
  runs_view_ = new RunsView(store_.get(), runsRoot(), this);
  tabs_->addTab(runs_view_, tr("Runs"));
  tabs_->tabBar()->setTabButton(1, QTabBar::RightSide, nullptr);
  connect(recorder_, &LiveRunRecorder::runRecorded, runs_view_, &RunsView::updateRun);
  connect(runs_view_, &RunsView::openRequested, this, &MainWindow::openRunDirectory);
  connect(runs_view_, &RunsView::compareRequested, this, &MainWindow::compareRuns);
  connect(runs_view_, &RunsView::editConfigRequested, this, &MainWindow::editRunConfig);
  connect(runs_view_, &RunsView::generateRequested, this,
          [this](const QString& run_dir) { showGenerate(run_dir); });
  connect(runs_view_, &RunsView::fetchRequested, this, &MainWindow::fetchRemoteRuns);
  if (store_->isOpen()) {
    QTimer::singleShot(0, runs_view_, &RunsView::rescan);
  }
}

void MainWindow::buildMenus() {
  ExperimentFileActions* files = editor_->fileActions();
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(files->newAction());
  file->addMenu(files->presetMenu());
  file->addAction(files->openAction());
  file->addMenu(files->recentMenu());
  QAction* import_hf =
      file->addAction(tr("&Import Hugging Face Model…"), this, &MainWindow::chooseHfModel);
  import_hf->setStatusTip(tr(
      "Read a model folder (config.json, safetensors) into a new experiment that fine-tunes it"));
  file->addSeparator();
  file->addAction(files->saveAction());
  file->addAction(files->saveAsAction());
  file->addSeparator();
  QAction* open_run =
      file->addAction(tr("Open &Run Directory…"), this, &MainWindow::chooseRunDirectory);
  open_run->setStatusTip(tr("Show a finished run, or one copied from another machine"));
  open_run->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  QAction* open_tensors =
      file->addAction(tr("Open Routing &Tensors…"), this, &MainWindow::chooseRoutingTensors);
  open_tensors->setStatusTip(
      tr("Route a safetensors file's MoE layer again under other settings (What-if)"));
  file->addAction(tr("Open Routing &Analysis…"), this, &MainWindow::chooseRoutingAnalysis)
      ->setStatusTip(tr("Show a moe-train analyze report: expert load, co-selection, top tokens"));
  file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] {
    const int index = tabs_->currentIndex();
    if (tabs_->widget(index) != editor_ && tabs_->widget(index) != runs_view_)
      emit tabs_->tabCloseRequested(index);
  });
  file->addSeparator();
  new ReportActions(this, file);  // Export Report (Ctrl+E), metrics CSV, config
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run_action_ = run->addAction(tr("▶  Run Experiment"), this, [this] { runExperiment(); });
  run_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run_action_->setToolTip(tr("Launch the experiment on the target chosen beside this button"));
  run->addAction(tr("Show &Runs"), QKeySequence(Qt::CTRL | Qt::Key_L), this,
                 [this] { tabs_->setCurrentWidget(runs_view_); });
  run->addAction(tr("&Generate Text…"), QKeySequence(Qt::CTRL | Qt::Key_G), this,
                 [this] { showGenerate(); })
      ->setStatusTip(
          tr("Generate with a run's checkpoint or a Hugging Face model, token by token"));
  run->addSeparator();
  QAction* targets = run->addAction(tr("&Targets…"), this, &MainWindow::showTargetsDialog);
  targets->setStatusTip(tr("SSH hosts and Slurm clusters to run on: add, edit, test, remove"));
  QAction* export_commands =
      run->addAction(tr("&Export Command Lines…"), this, &MainWindow::exportCommandLines);
  export_commands->setStatusTip(
      tr("The moe-train, launcher, srun and sbatch lines that start this experiment by hand"));
  run->addSeparator();
  run->addAction(tr("&Analyze Routing…"), this, [this] { showAnalyzeDialog(); })
      ->setStatusTip(tr("Run a corpus through a model and count each MoE layer's routing"));
  QAction* scaling = run->addAction(tr("&Scaling Planner…"), this,
                                    [this] { editor_->estimatesPanel()->showScaling(); });
  scaling->setStatusTip(
      tr("Predicted throughput, memory and step split of this experiment on 1 to 1024 GPUs"));
}

// The experiment as saved (or a stand-in name) in every command line that starts it by hand; the
// sbatch script takes the current target's Slurm settings, else the first cluster's.
void MainWindow::exportCommandLines() {
  const ExperimentDocument* doc = editor_->document();
  const QString file = doc->filePath().isEmpty() ? QStringLiteral("config.json") : doc->filePath();
  auto* dialog = new CommandExportDialog(
      file, doc->config(), slurmTargetForExport(targets_->current(), targets_->targets()), this,
      doc->initFrom());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

// Always in view, top right of the tabs: the one thing people come here to press, with where it
// runs beside it.
void MainWindow::buildRunButton() {
  auto* corner = new QWidget(tabs_);
  auto* layout = new QHBoxLayout(corner);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
  layout->addWidget(new QLabel(tr("on"), corner));
  layout->addWidget(buildTargetPicker(corner));
  auto* run_button = new QToolButton(corner);
  layout->addWidget(run_button);
  run_button->setDefaultAction(run_action_);
  run_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  run_button->setStyleSheet(
      "QToolButton { background: #2563eb; color: white; font-weight: 600; padding: 4px 14px;"
      " border-radius: 4px; margin: 2px 6px; }"
      "QToolButton:disabled { background: #9ca3af; }"
      "QToolButton:hover { background: #1d4ed8; }");
  tabs_->setCornerWidget(corner, Qt::TopRightCorner);
}

void MainWindow::restoreLayout() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  editor_->splitter()->restoreState(settings.value("editor/splitter").toByteArray());
  if (!settings.contains("window/geometry")) resize(1366, 860);
}

void MainWindow::saveLayout() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("editor/splitter", editor_->splitter()->saveState());
  const QString file = editor_->document()->filePath();
  if (!file.isEmpty()) settings.setValue("experiment/last", file);
}

void MainWindow::updateTitle() {
  ExperimentDocument* doc = editor_->document();
  setWindowTitle(doc->displayName() + (doc->isModified() ? " *" : "") + " — MoE Studio");
}

void MainWindow::updateRunAction() {
  const bool ok = editor_->document()->isValid();
  run_action_->setEnabled(ok);
  run_action_->setStatusTip(ok ? tr("Launch the experiment on the chosen target")
                               : tr("Fix the experiment's problems to run it"));
}

QString MainWindow::runsRoot() {
  return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/moe-studio/runs";
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!editor_->fileActions()->maybeSave()) {
    event->ignore();
    return;
  }
  // Remote runs go on without the app (and are re-attached at its next start).
  if (!runs_->attachedActiveRuns().isEmpty()) {
    const auto answer = QMessageBox::question(
        this, tr("Runs still active"),
        tr("%n run(s) are still training. Stop them (each writes a checkpoint) and quit?", nullptr,
           static_cast<int>(runs_->attachedActiveRuns().size())));
    if (answer != QMessageBox::Yes) {
      event->ignore();
      return;
    }
    runs_->cancelAll();
  }
  saveLayout();
  event->accept();
}

}  // namespace moe::ui

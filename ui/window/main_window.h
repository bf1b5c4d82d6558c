#pragma once
// The application window. Tabs: the experiment editor, the runs table (the run store), then one
// tab per run dashboard (live or replayed from a run directory) and per comparison. A Run action
// launches the current experiment locally; window layout and the last experiment persist in
// QSettings.
#include <QMainWindow>
#include <QStringList>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QTabWidget;

namespace moe::ui {

class AnalyzeDialog;
class AnalyzeView;
class CompareView;
class ExperimentEditor;
class GenerateView;
class HfImportDialog;
class LiveRunRecorder;
class ProfilerView;
class Run;
class RunDashboard;
class RunManager;
class RunStore;
class RunsView;
struct Target;
class TargetStore;
class WhatIfView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  ExperimentEditor* editor() const { return editor_; }
  RunManager* runs() const { return runs_; }
  RunStore* store() const { return store_.get(); }
  RunsView* runsView() const { return runs_view_; }
  QTabWidget* tabs() const { return tabs_; }
  ProfilerView* profilerView() const { return profiler_view_; }
  GenerateView* generateView() const { return generate_view_; }

  // Launches the experiment in the editor on the current target (a local run, or a remote one:
  // runRemote()) and shows its tab; null when the experiment has problems or cannot be written.
  Run* runExperiment();
  // Shows a run directory: the live run's dashboard when this session runs it, else a replay of
  // its metrics.jsonl (and the run enters the store). Null with a message when it is no run.
  RunDashboard* openRunDirectory(const QString& run_dir);
  // Overlays several runs (live or from their directories) with a config diff.
  CompareView* compareRuns(const QStringList& run_dirs);
  // Continues a stopped run from its newest checkpoint; its dashboard tab is replaced by the
  // live one. Null when it is running already.
  Run* resumeRun(const QString& run_dir);
  // Opens a run's resolved config in the experiment editor as a new, unsaved experiment.
  bool editRunConfig(const QString& run_dir);
  // main_window_import.cpp: reads a Hugging Face model folder with `moe-train import-hf` into the
  // editor as a new, unsaved experiment whose runs start from its weights; the dialog shows what
  // was read or why it was refused. Null when the user keeps unsaved changes instead.
  HfImportDialog* importHfModel(const QString& model_dir);
  // main_window_whatif.cpp: the What-if view of one MoE layer of a safetensors file (its tab, if
  // open already), `title` naming it in the tab; of a run's captured layer; or of any file,
  // asking which layer when it holds several.
  WhatIfView* openWhatIf(const QString& tensors, const QString& prefix, const QString& title);
  WhatIfView* openCapture(const QString& run_dir, qint64 step, qint64 layer,
                          const QString& tensors);
  void openRoutingTensors(const QString& tensors);
  // main_window_analyze.cpp: the Analyze view of a `moe-train analyze` report (its tab, if open
  // already), and the dialog that runs analyze (on `model` when given) and then opens its report.
  AnalyzeView* openRoutingAnalysis(const QString& report_path);
  AnalyzeDialog* showAnalyzeDialog(const QString& model = {});

  // main_window_generate.cpp: the Generate tab, its model set to `model` when given (a run, a
  // checkpoint step or a Hugging Face folder).
  GenerateView* showGenerate(const QString& model = {});

  // Where new runs go: ~/.local/share/moe-studio/runs.
  static QString runsRoot();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void chooseRunDirectory();
  void chooseRoutingTensors();
  void chooseHfModel();
  void chooseRoutingAnalysis();
  void exportCommandLines();
  // main_window_targets.cpp
  QComboBox* buildTargetPicker(QWidget* parent);
  void showTargetsDialog();
  Run* runRemote(const Target& target);
  void reattachRemoteRuns();
  void fetchRemoteRuns(const QStringList& run_dirs);
  void buildProfilerTab();  // main_window_profiler.cpp
  void buildGenerateTab();  // main_window_generate.cpp
  void refreshGenerateModels();
  void buildRunButton();
  void openStore();
  void restoreLayout();
  void saveLayout();
  void updateTitle();
  void updateRunAction();
  RunDashboard* showRun(Run* run);
  RunDashboard* findDashboard(const QString& run_dir) const;
  int addClosableTab(QWidget* page, const QString& title, int index = -1);
  void followTitle(RunDashboard* dashboard);
  QString writeLaunchConfig(QString* error);

  ExperimentEditor* editor_;
  RunManager* runs_;
  TargetStore* targets_;
  std::unique_ptr<RunStore> store_;
  LiveRunRecorder* recorder_ = nullptr;
  RunsView* runs_view_ = nullptr;
  ProfilerView* profiler_view_ = nullptr;
  GenerateView* generate_view_ = nullptr;
  QTabWidget* tabs_;
  QAction* run_action_;
  QLabel* active_label_;
};

}  // namespace moe::ui

#pragma once
// The application window: the experiment editor as the first tab, one tab per launched run, a
// Run action that launches the current experiment locally, and window state kept in QSettings.
#include <QMainWindow>

class QAction;
class QLabel;
class QTabWidget;

namespace moe::ui {

class ExperimentEditor;
class LocalRun;
class RunManager;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);

  ExperimentEditor* editor() const { return editor_; }
  RunManager* runs() const { return runs_; }
  // Launches the experiment in the editor as a local run and shows its tab; null when the
  // experiment has problems or cannot be written.
  LocalRun* runExperiment();
  // Where new runs go: ~/.local/share/moe-studio/runs.
  static QString runsRoot();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void updateTitle();
  void updateRunAction();
  void showRun(LocalRun* run);
  QString writeLaunchConfig(QString* error);

  ExperimentEditor* editor_;
  RunManager* runs_;
  QTabWidget* tabs_;
  QAction* run_action_;
  QLabel* active_label_;
};

}  // namespace moe::ui

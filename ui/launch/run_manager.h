// RunManager: the registry of this session's local runs. It owns every LocalRun, so a run keeps
// going when the dashboard that shows it closes; widgets hold plain pointers and listen to
// runRemoved() before letting go.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include "launch/launch_spec.h"
#include "launch/local_run.h"

namespace moe::ui {

class RunManager : public QObject {
  Q_OBJECT

 public:
  explicit RunManager(QObject* parent = nullptr);
  ~RunManager() override;

  // Used for specs that name no program; empty: defaultTrainProgram().
  QString trainProgram() const { return train_program_; }
  void setTrainProgram(const QString& path) { train_program_ = path; }

  // Creates, registers and starts a run; runAdded() comes before it starts.
  LocalRun* startRun(LaunchSpec spec);

  QList<LocalRun*> runs() const { return runs_; }  // in the order they were added
  QList<LocalRun*> activeRuns() const;
  bool hasActiveRuns() const { return !activeRuns().isEmpty(); }
  // The newest run of that directory (a resumed run has an older, ended one too).
  LocalRun* findByRunDir(const QString& run_dir) const;

  // Forgets a run that has ended (false, doing nothing, while it is active) and deletes it later.
  bool remove(LocalRun* run);
  // cancel() on every active run (what the application does before it quits).
  void cancelAll();

 signals:
  void runAdded(moe::ui::LocalRun* run);
  void runStateChanged(moe::ui::LocalRun* run, moe::ui::LocalRun::State state);
  void runFinished(moe::ui::LocalRun* run);
  void runRemoved(moe::ui::LocalRun* run);
  // The number of active runs changed (a status bar, the quit prompt).
  void activeCountChanged(int active);

 private:
  QString train_program_;
  QList<LocalRun*> runs_;
};

}  // namespace moe::ui

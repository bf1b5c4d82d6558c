// RunManager: the registry of this session's runs. It owns every Run (LocalRun for now), so a run
// keeps going when the dashboard that shows it closes; widgets hold plain pointers and listen to
// runRemoved() before letting go.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include "launch/launch_spec.h"
#include "launch/local_run.h"
#include "launch/run.h"

namespace moe::ui {

class RunManager : public QObject {
  Q_OBJECT

 public:
  explicit RunManager(QObject* parent = nullptr);
  ~RunManager() override;

  // Used for specs that name no program; empty: defaultTrainProgram().
  QString trainProgram() const { return train_program_; }
  void setTrainProgram(const QString& path) { train_program_ = path; }

  // Creates, registers and starts a local run; runAdded() comes before it starts.
  LocalRun* startRun(LaunchSpec spec);
  // Registers and starts `run`'s continuation from its newest checkpoint (Run::resume()); null
  // when it cannot resume.
  Run* resumeRun(const Run& run);

  QList<Run*> runs() const { return runs_; }  // in the order they were added
  QList<Run*> activeRuns() const;
  bool hasActiveRuns() const { return !activeRuns().isEmpty(); }
  // The newest run of that directory (a resumed run has an older, ended one too).
  Run* findByRunDir(const QString& run_dir) const;

  // Forgets a run that has ended (false, doing nothing, while it is active) and deletes it later.
  bool remove(Run* run);
  // cancel() on every active run (what the application does before it quits).
  void cancelAll();

 signals:
  void runAdded(moe::ui::Run* run);
  void runStateChanged(moe::ui::Run* run, moe::ui::Run::State state);
  void runFinished(moe::ui::Run* run);
  void runRemoved(moe::ui::Run* run);
  // The number of active runs changed (a status bar, the quit prompt).
  void activeCountChanged(int active);

 private:
  // Registers and starts a run this manager now owns.
  void add(Run* run);

  QString train_program_;
  QList<Run*> runs_;
};

}  // namespace moe::ui

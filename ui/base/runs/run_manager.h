// RunManager: the registry of this session's runs. It owns every Run (LocalRun, RemoteRun), so a
// run keeps going when the dashboard that shows it closes; widgets hold plain pointers and listen
// to runRemoved() before letting go. Remote runs outlive the app: at start-up it re-attaches the
// ones its runs root lists as active, without blocking the window.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include "base/remote/remote_run.h"
#include "base/run/launch_spec.h"
#include "base/run/local_run.h"
#include "base/run/run.h"

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
  // Creates, registers and starts a run on another machine or a Slurm cluster.
  RemoteRun* startRemoteRun(RemoteLaunch launch);
  // Looks for remote runs left active under `runs_root` (their remote.json) on a worker, then
  // registers and re-attaches each one not registered yet; reattached() when done.
  void reattachRemoteRuns(const QString& runs_root);
  // Registers and starts `run`'s continuation from its newest checkpoint (Run::resume()); null
  // when it cannot resume.
  Run* resumeRun(const Run& run);

  QList<Run*> runs() const { return runs_; }  // in the order they were added
  QList<Run*> activeRuns() const;
  bool hasActiveRuns() const { return !activeRuns().isEmpty(); }
  // The active runs that end with the app (not detached): what the quit prompt asks about.
  QList<Run*> attachedActiveRuns() const;
  // The newest run of that directory (a resumed run has an older, ended one too).
  Run* findByRunDir(const QString& run_dir) const;

  // Forgets a run that has ended (false, doing nothing, while it is active) and deletes it later.
  bool remove(Run* run);
  // cancel() on every active run that ends with the app (what it does before it quits); remote
  // runs go on and are re-attached at the next start.
  void cancelAll();

 signals:
  void runAdded(moe::ui::Run* run);
  void runStateChanged(moe::ui::Run* run, moe::ui::Run::State state);
  void runFinished(moe::ui::Run* run);
  void runRemoved(moe::ui::Run* run);
  // The number of active runs changed (a status bar, the quit prompt).
  void activeCountChanged(int active);
  // reattachRemoteRuns() is done: `runs` were re-attached.
  void reattached(const QList<moe::ui::Run*>& runs);

 private:
  // Registers and starts a run this manager now owns.
  void add(Run* run);

  QString train_program_;
  QList<Run*> runs_;
};

}  // namespace moe::ui

// RemoteRun: a run on another machine (Target::Kind::Ssh) or a Slurm cluster (Kind::Slurm). The
// config travels over the channel's stdin into <remote runs root>/<run id>/remote/submitted.json;
// moe-train starts detached there (or as a batch job), so the run lives on when the connection or
// the app goes away. The app keeps a local directory for it, <app runs root>/<run id>/, with
// remote.json (RemoteRunRecord: enough to re-attach after a restart) and the streamed copy of its
// metrics.jsonl, so the Runs tab, the dashboard and comparisons treat it as a run directory;
// RemoteFetch copies the rest (checkpoints, logs) when asked.
//
// While it runs it asks the target every few seconds for its state (remote_scripts::kStatus:
// process or Slurm queue, the last lines of its stderr) and follows metrics.jsonl
// (RemoteTelemetryStream). A dropped connection is not the end of the run: both go on trying.
//
// Its work goes through the phases of Phase, one at a time (remote_run.cpp starts and follows,
// remote_run_end.cpp ends):
//   new run:      Idle -> MakingLocalDir -> MakingRemoteDir -> StartingEngine -> Following
//   re-attached:  Idle -> LoadingHistory -> Following
//   resumed:      Idle -> LoadingHistory -> StartingEngine -> Following
//   Following -> Ending (the status says it ended: the last telemetry is read) -> Ended
//   Following -> Detached (the local copy cannot be written: nothing more is read, the record
//                stays active, a later RemoteRun of the directory re-attaches)
//   any phase -> Ended on a failure (fail()) or a cancel before the engine was started.
// A cancel is remembered (Cancel) and sent once the engine runs; the Run state (Starting,
// Running, ...) is what people see, the phase is what the run does next.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QThreadPool>
#include <QTimer>

#include <functional>

#include "base/remote/remote_channel.h"
#include "base/remote/remote_run_record.h"
#include "base/remote/remote_status.h"
#include "base/remote/target.h"
#include "base/run/run.h"

namespace moe::ui {

class RemoteTelemetryStream;

// What starts a new remote run.
struct RemoteLaunch {
  Target target;
  QByteArray config;        // the experiment's config (JSON), sent as it is
  QString name;             // the config's name: the run id is <time>-<name made safe>
  int nproc = 1;            // processes per node (SSH: through `moe-train launch`)
  QString batch_script;     // Slurm: the script the user saw (slurmBatchScript())
  QString local_runs_root;  // where the run's local directory goes
};

class RemoteRun : public Run {
  Q_OBJECT

 public:
  static constexpr int kStatusIntervalMs = 2000;
  static constexpr int kCancelGraceMs = 60000;  // then SIGKILL (SSH) or a plain scancel (Slurm)

  // A new run; start() makes the directories and starts it.
  explicit RemoteRun(RemoteLaunch launch, QObject* parent = nullptr);
  // A run this app started before (its local directory holds remote.json): start() re-attaches,
  // or, with `resume`, starts `moe-train run --resume` in its remote directory (detached over
  // SSH, or a new batch job whose script says --resume).
  RemoteRun(QString local_dir, RemoteRunRecord record, QObject* parent = nullptr,
            bool resume = false);
  ~RemoteRun() override;

  enum class Phase {
    Idle,             // not started
    MakingLocalDir,   // the local directory and remote.json, on the file thread
    LoadingHistory,   // re-attached or resumed: the local copy of metrics.jsonl into the series
    MakingRemoteDir,  // kPrepare: the remote run directory and submitted.json
    StartingEngine,   // kStartDetached over SSH, kSubmitBatch on Slurm
    Following,        // status polls and the telemetry stream
    Detached,         // the local copy cannot be written: polls and stream stopped
    Ending,           // the status says it ended: its last telemetry lines are read
    Ended,            // Finished, Failed or Cancelled
  };
  // How this RemoteRun came to be.
  enum class Origin { New, Reattached, Resumed };
  // What the user asked: nothing, a cancel (an interrupt, sent once the engine runs), or a cancel
  // that ended in a kill (the interrupt's grace period passed).
  enum class Cancel { None, Requested, Killed };

  const RemoteRunRecord& record() const { return record_; }
  QString remoteDir() const { return record_.remote_dir; }
  QString jobId() const { return record_.job_id; }
  Phase phase() const { return phase_; }
  bool isReattached() const { return origin_ == Origin::Reattached; }
  // `then` on `context`'s thread once remote.json holds what this run knows now (it is written
  // off the GUI thread, in order): a fetch reads it and must not see a state that has passed.
  void whenRecordWritten(QObject* context, std::function<void()> then);
  // Why the target cannot be reached right now (the run may be fine); empty when it can.
  QString connectionProblem() const { return connection_problem_; }
  // The local copy of metrics.jsonl could not be written (a full disk): telemetry and status
  // polling stopped, the remote run goes on and its record stays active, so that a later
  // RemoteRun of this directory re-attaches from the copy's last whole line. Empty otherwise.
  QString mirrorProblem() const { return mirror_problem_; }

  QString target() const override { return record_.target.name; }
  QString stateText() const override;
  bool isDetached() const override { return true; }
  bool isResume() const override { return origin_ == Origin::Resumed; }
  QString runId() const override { return record_.run_id; }
  QString pendingName() const override { return record_.name; }
  QString runDir() const override { return local_dir_; }
  int exitCode() const override { return record_.exit_code; }
  QString errorText() const override { return record_.error; }
  // Cancelled or failed, with a complete checkpoint in the remote directory.
  bool canResume() const override;
  Run* resume(QObject* parent) const override;

 public slots:
  void start() override;
  // SIGINT to moe-train (scancel --signal=INT for Slurm): it checkpoints and stops; after
  // kCancelGraceMs, SIGKILL (plain scancel). The state is then read back from the target.
  void cancel() override;

 private:
  // remote_run.cpp: starting and following
  void prepareLocal();
  void loadHistory();
  void startEngine(const QString& mode);
  void onPrepared(const RemoteResult& result);
  void onStarted(const RemoteResult& result);
  void attach(qint64 offset);
  void pollStatus();
  void onStatus(const RemoteResult& result);
  void onControlFinished(const RemoteResult& result);
  void detach(const QString& why);
  void setConnectionProblem(const QString& why);
  void addStderrTail(const QStringList& tail);
  void sendCancel(bool hard);
  bool stillQueued() const;
  void endUnstarted();
  QString setupCommands() const;
  // remote_run_end.cpp: how it ended
  void onEnded(const RemoteStatus& status);
  void finalize();
  void fail(const QString& why);
  State endState(const RemoteStatus& status) const;
  QString failureText(const RemoteStatus& status) const;  // the cause, and a full disk
  QString failureCause(const RemoteStatus& status) const;
  void stateEntered(State state) override;
  void saveRecord();

  RemoteLaunch launch_;
  RemoteRunRecord record_;
  QString local_dir_;
  RemoteChannel* control_;  // prepare, start or submit
  RemoteChannel* status_;   // status polls
  RemoteChannel* signal_;   // cancel
  RemoteTelemetryStream* stream_ = nullptr;
  QThreadPool files_;  // the local directory's files, in order, off the GUI thread
  QTimer poll_timer_, grace_timer_;

  Phase phase_ = Phase::Idle;
  Origin origin_ = Origin::New;
  Cancel cancel_ = Cancel::None;
  RemoteStatus last_status_;
  QString queue_text_, connection_problem_, mirror_problem_;
  QStringList last_tail_;
  qint64 start_offset_ = 0;  // the local metrics.jsonl's size when following starts
};

}  // namespace moe::ui

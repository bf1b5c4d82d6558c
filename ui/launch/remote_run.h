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
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QThreadPool>
#include <QTimer>

#include <functional>

#include "launch/remote_channel.h"
#include "launch/remote_run_record.h"
#include "launch/remote_status.h"
#include "launch/run.h"
#include "launch/target.h"

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
  static constexpr int kStderrLines = 5000;

  // A new run; start() makes the directories and starts it.
  explicit RemoteRun(RemoteLaunch launch, QObject* parent = nullptr);
  // A run this app started before (its local directory holds remote.json): start() re-attaches,
  // or, with `resume`, starts `moe-train run --resume` in its remote directory (detached over
  // SSH, or a new batch job whose script says --resume).
  RemoteRun(QString local_dir, RemoteRunRecord record, QObject* parent = nullptr,
            bool resume = false);
  ~RemoteRun() override;

  const RemoteRunRecord& record() const { return record_; }
  QString remoteDir() const { return record_.remote_dir; }
  QString jobId() const { return record_.job_id; }
  bool isReattached() const { return reattached_; }
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
  State state() const override { return state_; }
  QString stateText() const override;
  bool isDetached() const override { return true; }
  bool isResume() const override { return resuming_; }
  QString runId() const override { return record_.run_id; }
  QString pendingName() const override { return record_.name; }
  QString runDir() const override { return local_dir_; }
  qint64 step() const override { return step_; }
  qint64 totalSteps() const override { return total_steps_; }
  double etaSeconds() const override { return eta_s_; }
  QStringList stderrLines() const override { return stderr_lines_; }
  int exitCode() const override { return record_.exit_code; }
  QString errorText() const override { return record_.error; }
  QDateTime startedAt() const override { return started_at_; }
  QDateTime endedAt() const override { return ended_at_; }
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
  void onTelemetryChanged();
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
  void setState(State state);
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

  State state_ = State::NotStarted;
  RemoteStatus last_status_;
  QString queue_text_, connection_problem_, mirror_problem_;
  QStringList stderr_lines_, last_tail_;
  qint64 step_ = 0, total_steps_ = 0;
  double eta_s_ = -1;
  qint64 start_offset_ = 0;  // the local metrics.jsonl's size when following starts
  uint64_t own_after_ = 0;   // series versions up to this are an earlier attempt's (a resume)
  bool reattached_ = false, resuming_ = false, cancel_requested_ = false, hard_cancelled_ = false,
       ending_ = false;
  QDateTime started_at_, ended_at_;
};

}  // namespace moe::ui

// Run: one training run of this session, wherever its processes live. The dashboard, its header,
// the live run recorder and the main window know a run only through this class; LocalRun
// (moe-train on this machine) and RemoteRun (over ssh, or through Slurm) are its kinds.
//
// The base owns what every run has: its state, progress, ETA, the recent lines of its log, when it
// started and ended, and how its telemetry moves them. A run's telemetry arrives as bytes of JSON
// Lines (moe-train's stdout, however it reaches the app): the kind hands them to
// receiveTelemetry(), which feeds the run's TelemetryFeed and so its RunSeries; every change of
// the series goes through updateFromTelemetry(). The run directory on the machine that runs it is
// the durable record.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

#include "base/telemetry/run_series.h"
#include "base/telemetry/telemetry_feed.h"

namespace moe::ui {

class Run : public QObject {
  Q_OBJECT

 public:
  enum class State {
    NotStarted,
    Starting,   // the process is starting or loading; no run_start yet
    Running,    // run_start seen
    Finished,   // exit status 0
    Failed,     // could not start, bad input (2), failure (1), crash or kill
    Cancelled,  // cancel(): exit 130/143 after a checkpoint, or killed after the grace period
  };
  Q_ENUM(State)

  // Lines of its log kept for the log pane (the whole log is <run-dir>/stderr.log).
  static constexpr int kMaxStderrLines = 5000;

  ~Run() override;

  // Where its processes run, for people: "local" for this machine.
  virtual QString target() const = 0;

  State state() const { return state_; }
  bool isActive() const;
  static QString stateName(State state);
  // stateName(), except that a resume is "resuming" until its process has started the run; a
  // queued run says so ("pending: Resources").
  virtual QString stateText() const;
  // Whether it keeps running when the app quits (a remote run: the app re-attaches at its next
  // start); the app cancels the others before it quits.
  virtual bool isDetached() const { return false; }
  // Whether it continues an earlier run's directory from its newest checkpoint.
  virtual bool isResume() const = 0;

  // The telemetry received so far, parsed off the GUI thread into series().
  TelemetryFeed* feed() const { return feed_; }
  std::shared_ptr<RunSeries> series() const { return feed_->series(); }

  // run_start's run_id; empty until the run has started.
  virtual QString runId() const = 0;
  // What to call it before run_start names it (the experiment's config file).
  virtual QString pendingName() const = 0;
  // The run directory on the machine that runs it; empty while it is not known yet.
  virtual QString runDir() const = 0;

  qint64 step() const { return step_; }                      // the latest step reported
  qint64 totalSteps() const { return total_steps_; }         // train.steps; 0 when unknown
  double etaSeconds() const { return eta_s_; }               // -1 when unknown
  QStringList stderrLines() const { return stderr_lines_; }  // the recent lines of its log

  // After the end: the exit code (-1 when it never ran) and why it failed or how it was stopped.
  virtual int exitCode() const = 0;
  virtual QString errorText() const = 0;
  QDateTime startedAt() const { return started_at_; }
  QDateTime endedAt() const { return ended_at_; }

  // Whether it stopped early (cancelled or failed) and left a complete checkpoint.
  virtual bool canResume() const = 0;
  // A new run, not started yet, of the same kind and target, that continues this one's directory
  // from its newest checkpoint; the caller owns it (RunManager::resumeRun registers and starts
  // it). Null while the run directory is not known.
  virtual Run* resume(QObject* parent) const = 0;

 public slots:
  virtual void start() = 0;
  // Asks it to stop after a checkpoint; calling it again changes nothing.
  virtual void cancel() = 0;

 signals:
  void stateChanged(moe::ui::Run::State state);
  void progressChanged(qint64 step, qint64 total, double eta_seconds);
  void stderrReceived(const QStringList& lines);
  // The run reached Finished, Failed or Cancelled, with all its telemetry in series().
  void finished();

 protected:
  explicit Run(QObject* parent = nullptr);
  // Telemetry bytes as they arrive, in order; a chunk may end anywhere in a line.
  void receiveTelemetry(const QByteArray& bytes) { feed_->feed(bytes); }

  // Moves the state (announcing a change) and calls stateEntered() first.
  void setState(State state);
  // What a kind does on entering a state, before the change is announced (a record to write).
  virtual void stateEntered(State) {}
  // This attempt's telemetry: the series' versions after `version` (a resume's or a re-attached
  // run's history, read first, is older and says nothing about this attempt's progress).
  void ownTelemetryAfter(uint64_t version) { own_after_ = version; }
  uint64_t ownTelemetryAfter() const { return own_after_; }
  // Called on every change of the series: this attempt's run_start (its total steps, then
  // runStarted(), then Starting -> Running) and its latest step and ETA.
  void updateFromTelemetry();
  // This attempt's run_start has arrived (once), with the run's identity and config.
  virtual void runStarted(const RunInfo&) {}
  // Lines of its log, the oldest dropped beyond kMaxStderrLines; announced.
  void appendStderr(const QStringList& lines);

  qint64 total_steps_ = 0;
  QDateTime started_at_, ended_at_;

 private:
  TelemetryFeed* feed_;
  State state_ = State::NotStarted;
  uint64_t own_after_ = 0;
  bool run_start_seen_ = false;
  qint64 step_ = 0;
  double eta_s_ = -1;
  QStringList stderr_lines_;
};

// moe-train's exit statuses when a signal stopped it after a checkpoint (SIGINT, SIGTERM).
inline constexpr int kExitInterrupted = 130;
inline constexpr int kExitTerminated = 143;

// Seconds until `total_steps` at the recent pace of the series up to `step`; -1 when unknown.
double estimateEtaSeconds(const RunSeries& series, qint64 step, qint64 total_steps);

// Whether `run_dir` (on this machine) holds a complete checkpoint to resume from
// (checkpoints/step-N/ with its state.json).
bool hasCheckpoint(const QString& run_dir);

}  // namespace moe::ui

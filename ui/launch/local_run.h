// LocalRun: one `moe-train run` on this machine, through QProcess. Its stdout (telemetry JSON
// Lines) goes into a TelemetryFeed and so into a RunSeries; its stderr (moe-train's human log)
// is kept line by line for a log pane. It tracks state, progress and ETA, and on exit says how
// the run ended and why.
//
// A resume (spec().resume) first reads the run's metrics.jsonl into the series on a worker
// thread, so the dashboard shows the history from step 1, then starts the process. Until that
// process writes its own run_start the run is Starting ("resuming"), and its step, ETA and error
// come from the new process only, never from the history's last rows or its run_end.
//
// Owned by a RunManager, not by a widget: closing a dashboard tab leaves the run going.
// Destroying a LocalRun whose process still runs stops it as cancel() does, blocking for up to
// the grace period: an application should ask RunManager::hasActiveRuns() before it quits.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <QFutureWatcher>

#include <memory>
#include <utility>

#include "launch/launch_spec.h"
#include "telemetry/run_series.h"
#include "telemetry/telemetry_feed.h"

namespace moe::ui {

class LocalRun : public QObject {
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

  // stderr lines kept for the log pane (the whole log is <run-dir>/stderr.log).
  static constexpr int kMaxStderrLines = 5000;
  // Lines of stderr that errorText() quotes when the process died without a run_end error.
  static constexpr int kErrorTailLines = 12;

  explicit LocalRun(LaunchSpec spec, QObject* parent = nullptr);
  ~LocalRun() override;

  const LaunchSpec& spec() const { return spec_; }
  QString program() const { return program_; }
  QStringList arguments() const { return spec_.arguments(); }

  State state() const { return state_; }
  bool isActive() const { return state_ == State::Starting || state_ == State::Running; }
  static QString stateName(State state);
  // stateName(), except that a resume is "resuming" until its process has started the run.
  QString stateText() const;

  TelemetryFeed* feed() const { return feed_; }
  std::shared_ptr<RunSeries> series() const { return feed_->series(); }

  // run_start's run_id; the run directory (spec's, or runs_root/run_id once run_start named it).
  QString runId() const { return run_id_; }
  QString runDir() const;

  qint64 step() const { return step_; }               // the latest step reported
  qint64 totalSteps() const { return total_steps_; }  // train.steps; 0 when unknown
  double etaSeconds() const { return eta_s_; }        // from recent step times; -1 when unknown

  QStringList stderrLines() const { return stderr_lines_; }

  // After the end: the process's exit code (-1 when it never ran) and whether it crashed
  // (killed by a signal, ours included).
  int exitCode() const { return exit_code_; }
  QProcess::ExitStatus exitStatus() const { return exit_status_; }
  // Why it failed: run_end's error, else the process error (could not start), else the last
  // stderr lines (a crash or a kill leaves no run_end). For Cancelled, a note if it was killed.
  QString errorText() const { return error_text_; }
  bool cancelRequested() const { return cancel_requested_; }
  QDateTime startedAt() const { return started_at_; }
  QDateTime endedAt() const { return ended_at_; }

 public slots:
  void start();
  // SIGINT: moe-train finishes its step, writes a checkpoint and exits 130. Killed if it is still
  // running spec().cancel_grace_ms later. Calling it again changes nothing.
  void cancel();
  // SIGKILL now (no checkpoint).
  void kill();

 signals:
  void stateChanged(moe::ui::LocalRun::State state);
  void progressChanged(qint64 step, qint64 total, double eta_seconds);
  void stderrReceived(const QStringList& lines);
  // The run reached Finished, Failed or Cancelled, with all its telemetry in series().
  void finished();

 private:
  void setState(State state);
  void readStdout();
  void readStderr(bool flush_partial = false);
  void onTelemetryChanged();
  void onProcessError(QProcess::ProcessError error);
  void onProcessFinished(int exit_code, QProcess::ExitStatus status);
  void onFeedFinished();
  void startProcess();
  void finalize();
  QString stderrTail() const;
  void updateEta(const RunSeries& series, qint64 step);

  LaunchSpec spec_;
  QString program_;
  QProcess* process_ = nullptr;
  TelemetryFeed* feed_;
  QTimer grace_timer_;
  QFutureWatcher<void> history_;  // a resume's history, read on a worker
  uint64_t history_version_ = 0;  // the series' version once the history is in: later is ours

  State state_ = State::NotStarted;
  QString run_id_;
  qint64 step_ = 0, total_steps_ = 0;
  double eta_s_ = -1;
  QStringList stderr_lines_;
  QByteArray stderr_partial_;
  int exit_code_ = -1;
  QProcess::ExitStatus exit_status_ = QProcess::NormalExit;
  bool exited_ = false, cancel_requested_ = false, killed_ = false, killed_after_grace_ = false;
  QString error_text_;
  QDateTime started_at_, ended_at_;
};

}  // namespace moe::ui

// LocalRun: one `moe-train run` on this machine, through QProcess: the Run whose target is
// "local". Its stdout (telemetry JSON Lines) goes into the run's TelemetryFeed and so into its
// RunSeries; its stderr (moe-train's human log) is kept line by line for a log pane. It tracks
// state, progress and ETA, and on exit says how the run ended and why.
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
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <QFutureWatcher>

#include <memory>
#include <utility>

#include "base/run/launch_spec.h"
#include "base/run/run.h"

namespace moe::ui {

class LocalRun : public Run {
  Q_OBJECT

 public:
  // Lines of stderr that errorText() quotes when the process died without a run_end error.
  static constexpr int kErrorTailLines = 12;

  explicit LocalRun(LaunchSpec spec, QObject* parent = nullptr);
  ~LocalRun() override;

  const LaunchSpec& spec() const { return spec_; }
  QString program() const { return program_; }
  QStringList arguments() const { return spec_.arguments(); }

  QString target() const override { return QStringLiteral("local"); }
  bool isResume() const override { return spec_.resume; }

  // run_start's run_id; the run directory (spec's, or runs_root/run_id once run_start named it).
  QString runId() const override { return run_id_; }
  QString pendingName() const override;  // the config file's base name
  QString runDir() const override;

  // After the end: the process's exit code (-1 when it never ran) and whether it crashed
  // (killed by a signal, ours included).
  int exitCode() const override { return exit_code_; }
  QProcess::ExitStatus exitStatus() const { return exit_status_; }
  // Why it failed: run_end's error, else the process error (could not start), else the last
  // stderr lines (a crash or a kill leaves no run_end). For Cancelled, a note if it was killed.
  QString errorText() const override { return error_text_; }
  bool cancelRequested() const { return cancel_requested_; }

  // Cancelled or failed, with a complete checkpoint in runDir().
  bool canResume() const override;
  // `moe-train run --resume runDir()` with the same program, working directory and grace.
  Run* resume(QObject* parent) const override;

 public slots:
  void start() override;
  // SIGINT: moe-train finishes its step, writes a checkpoint and exits 130. Killed if it is still
  // running spec().cancel_grace_ms later. Calling it again changes nothing.
  void cancel() override;
  // SIGKILL now (no checkpoint).
  void kill();

 private:
  void readStdout();
  void readStderr(bool flush_partial = false);
  void runStarted(const RunInfo& info) override;
  void onProcessError(QProcess::ProcessError error);
  void onProcessFinished(int exit_code, QProcess::ExitStatus status);
  void onFeedFinished();
  void startProcess();
  void finalize();
  QString stderrTail() const;

  LaunchSpec spec_;
  QString program_;
  QProcess* process_ = nullptr;
  QTimer grace_timer_;
  QFutureWatcher<void> history_;  // a resume's history, read on a worker

  QString run_id_;
  QByteArray stderr_partial_;
  int exit_code_ = -1;
  QProcess::ExitStatus exit_status_ = QProcess::NormalExit;
  bool exited_ = false, cancel_requested_ = false, killed_ = false, killed_after_grace_ = false;
  QString error_text_;
};

}  // namespace moe::ui

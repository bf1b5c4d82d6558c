#include "base/run/local_run.h"
#include "base/run/run_files.h"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <csignal>
#include <utility>

#ifdef Q_OS_UNIX
#include <sys/types.h>
#include <unistd.h>
#endif

namespace moe::ui {

LocalRun::LocalRun(LaunchSpec spec, QObject* parent) : Run(parent), spec_(std::move(spec)) {
  grace_timer_.setSingleShot(true);
  connect(&grace_timer_, &QTimer::timeout, this, [this] {
    if (process_ && process_->state() != QProcess::NotRunning) {
      killed_after_grace_ = true;
      kill();
    }
  });
  connect(feed(), &TelemetryFeed::changed, this, &LocalRun::updateFromTelemetry);
  connect(feed(), &TelemetryFeed::finished, this, &LocalRun::onFeedFinished);
  connect(&history_, &QFutureWatcher<void>::finished, this, [this] {
    ownTelemetryAfter(series()->version());
    if (cancel_requested_) {  // cancelled while the history was read: nothing was started
      ended_at_ = QDateTime::currentDateTime();
      setState(State::Cancelled);
      emit finished();
      return;
    }
    startProcess();
  });
}

LocalRun::~LocalRun() {
  history_.waitForFinished();  // the worker writes into the series this run shares
  if (!process_ || process_->state() == QProcess::NotRunning) return;
  // Stop it the way cancel() does, so it leaves a checkpoint to resume from.
  process_->disconnect(this);
  const qint64 pid = process_->processId();
#ifdef Q_OS_UNIX
  if (pid > 0) ::kill(static_cast<pid_t>(pid), SIGINT);
#endif
  if (!process_->waitForFinished(spec_.cancel_grace_ms)) {
    process_->kill();
    process_->waitForFinished(1000);
  }
}

QString LocalRun::pendingName() const {
  return QFileInfo(spec_.config_file).baseName();
}

QString LocalRun::runDir() const {
  if (!spec_.run_dir.isEmpty()) return spec_.run_dir;
  if (run_id_.isEmpty()) return {};
  return QDir(spec_.runs_root.isEmpty() ? QStringLiteral("runs") : spec_.runs_root)
      .filePath(run_id_);
}

bool LocalRun::canResume() const {
  const bool stopped_early = state() == State::Cancelled || state() == State::Failed;
  const QString dir = runDir();
  return stopped_early && !dir.isEmpty() && hasCheckpoint(dir);
}

Run* LocalRun::resume(QObject* parent) const {
  const QString dir = runDir();
  if (dir.isEmpty()) return nullptr;
  LaunchSpec spec;
  spec.program = spec_.program;
  spec.working_dir = spec_.working_dir;  // a relative run directory stays the same one
  spec.cancel_grace_ms = spec_.cancel_grace_ms;
  spec.resume = true;
  spec.run_dir = dir;
  return new LocalRun(std::move(spec), parent);
}

void LocalRun::start() {
  if (state() != State::NotStarted) return;
  program_ = spec_.program.isEmpty() ? defaultTrainProgram() : spec_.program;
  total_steps_ = spec_.expectedSteps();
  started_at_ = QDateTime::currentDateTime();
  setState(State::Starting);
  if (!spec_.resume) {
    startProcess();
    return;
  }
  // A resumed run continues a history: its dashboard shows it from step 1, not from the
  // checkpoint (the steps it repeats replace the old rows as they arrive). The file may be long:
  // it is parsed on a worker, and the process starts once it is in.
  const QString path = runFile(spec_.run_dir, run_layout::kMetrics);
  std::shared_ptr<RunSeries> series = this->series();
  history_.setFuture(QtConcurrent::run([path, series] {
    TelemetryFeed::readFile(path, series.get());  // none yet: the process will say what is wrong
  }));
}

void LocalRun::startProcess() {
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(spec_.arguments());
  if (!spec_.working_dir.isEmpty()) process_->setWorkingDirectory(spec_.working_dir);
  process_->setStandardInputFile(QProcess::nullDevice());
  connect(process_, &QProcess::readyReadStandardOutput, this, &LocalRun::readStdout);
  connect(process_, &QProcess::readyReadStandardError, this, [this] { readStderr(); });
  connect(process_, &QProcess::errorOccurred, this, &LocalRun::onProcessError);
  connect(process_, &QProcess::finished, this, &LocalRun::onProcessFinished);
  process_->start();
}

void LocalRun::cancel() {
  if (state() == State::NotStarted) {
    cancel_requested_ = true;
    ended_at_ = QDateTime::currentDateTime();
    setState(State::Cancelled);
    emit finished();
    return;
  }
  if (!isActive() || cancel_requested_) return;
  cancel_requested_ = true;
  if (!process_ || process_->state() == QProcess::NotRunning) return;  // history_ ends it
  const qint64 pid = process_->processId();
#ifdef Q_OS_UNIX
  // Not QProcess::terminate(): moe-train treats SIGINT and SIGTERM alike, but SIGINT is what a
  // user at a terminal sends, and its exit status (130) says so.
  if (pid > 0) {
    ::kill(static_cast<pid_t>(pid), SIGINT);
    grace_timer_.start(spec_.cancel_grace_ms);
    return;
  }
#endif
  kill();
}

void LocalRun::kill() {
  if (!process_ || process_->state() == QProcess::NotRunning) return;
  cancel_requested_ = killed_ = true;
  process_->kill();
}

void LocalRun::readStdout() {
  receiveTelemetry(process_->readAllStandardOutput());
}

void LocalRun::readStderr(bool flush_partial) {
  stderr_partial_.append(process_->readAllStandardError());
  QStringList lines;
  qsizetype begin = 0;
  for (qsizetype nl; (nl = stderr_partial_.indexOf('\n', begin)) >= 0; begin = nl + 1) {
    QByteArray line = stderr_partial_.mid(begin, nl - begin);
    if (line.endsWith('\r')) line.chop(1);
    lines << QString::fromUtf8(line);
  }
  stderr_partial_.remove(0, begin);
  if (flush_partial && !stderr_partial_.isEmpty()) {
    lines << QString::fromUtf8(stderr_partial_);
    stderr_partial_.clear();
  }
  appendStderr(lines);
}

// Only what this process wrote counts: a resume's history (read before it started) has the
// old run's steps and run_start.
void LocalRun::runStarted(const RunInfo& info) {
  run_id_ = QString::fromStdString(info.run_id);
}

void LocalRun::onProcessError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart) return;  // a crash also ends in finished()
  exited_ = true;
  error_text_ = tr("Could not start %1: %2").arg(program_, process_->errorString());
  // Queued: start() may be what reported this, and its caller connects to finished() after.
  QMetaObject::invokeMethod(this, &LocalRun::finalize, Qt::QueuedConnection);
}

void LocalRun::onProcessFinished(int exit_code, QProcess::ExitStatus status) {
  exited_ = true;
  exit_code_ = exit_code;
  exit_status_ = status;
  grace_timer_.stop();
  readStdout();
  readStderr(true);
  feed()->finish();  // finalize() once the last telemetry is parsed
}

void LocalRun::onFeedFinished() {
  if (exited_) finalize();
}

void LocalRun::finalize() {
  if (!isActive()) return;  // once
  ended_at_ = QDateTime::currentDateTime();
  updateFromTelemetry();
  const bool started = exit_code_ >= 0 || exit_status_ == QProcess::CrashExit;
  State end;
  if (!started) {
    end = State::Failed;  // error_text_ says why
  } else if (exit_status_ == QProcess::CrashExit) {
    end = cancel_requested_ ? State::Cancelled : State::Failed;
  } else if (exit_code_ == 0) {
    end = State::Finished;
  } else if (exit_code_ == kExitInterrupted || exit_code_ == kExitTerminated) {
    end = State::Cancelled;
  } else {
    end = State::Failed;
  }
  if (end == State::Failed && error_text_.isEmpty()) {
    const auto run_end = series()->runEndAfter(ownTelemetryAfter());  // not the history's
    if (run_end && run_end->error) {
      error_text_ = QString::fromStdString(*run_end->error);
    } else {
      const QString how = exit_status_ == QProcess::CrashExit
                              ? tr("moe-train crashed or was killed")
                              : tr("moe-train exited with status %1").arg(exit_code_);
      const QString tail = stderrTail();
      error_text_ = tail.isEmpty() ? how : how + QStringLiteral(":\n") + tail;
    }
  }
  if (end == State::Cancelled && killed_) {
    error_text_ = killed_after_grace_
                      ? tr("moe-train had not stopped %1 s after the interrupt and was killed; "
                           "the steps since its last checkpoint are lost")
                            .arg(spec_.cancel_grace_ms / 1000.0)
                      : tr("moe-train was killed; the steps since its last checkpoint are lost");
  }
  setState(end);
  emit finished();
}

QString LocalRun::stderrTail() const {
  const QStringList lines = stderrLines();
  const qsizetype n = std::min<qsizetype>(kErrorTailLines, lines.size());
  return lines.mid(lines.size() - n).join(QLatin1Char('\n'));
}

}  // namespace moe::ui

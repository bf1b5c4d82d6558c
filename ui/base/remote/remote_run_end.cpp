// RemoteRun: how a remote run ends, and what the user is told about it.
#include <QDir>

#include "base/remote/remote_run.h"
#include "base/remote/remote_telemetry_stream.h"

namespace moe::ui {

namespace {

constexpr int kExitKilled = 137;       // 128 + SIGKILL
constexpr int kExitBadInput = 2;       // moe-train: bad config, arguments or files
constexpr int kExitNotFound = 127;     // the shell: no such program
constexpr int kErrorTailLines = 12;    // stderr lines quoted when nothing better says why
constexpr qint64 kFullDiskKib = 1024;  // less free space than this: a failure says the disk is full

}  // namespace

// Telemetry first: the run's last lines are read before the end is announced.
void RemoteRun::onEnded(const RemoteStatus& status) {
  if (phase_ == Phase::Ending || phase_ == Phase::Ended) return;
  phase_ = Phase::Ending;
  last_status_ = status;
  poll_timer_.stop();
  grace_timer_.stop();
  if (stream_) {
    stream_->finish();  // then the feed finishes, then finalize()
  } else {
    feed()->finish();
  }
}

void RemoteRun::finalize() {
  if (!isActive()) return;
  phase_ = Phase::Ended;
  ended_at_ = QDateTime::currentDateTime();
  updateFromTelemetry();
  const State end = endState(last_status_);
  record_.exit_code = last_status_.exit_code;
  if (end == State::Failed) record_.error = failureText(last_status_);
  if (end == State::Cancelled && cancel_ == Cancel::Killed)
    record_.error = tr("moe-train had not stopped %1 s after the interrupt and was killed; the "
                       "steps since its last checkpoint are lost")
                        .arg(kCancelGraceMs / 1000);
  setState(end);
  emit finished();
}

void RemoteRun::fail(const QString& why) {
  if (!isActive() && state() != State::NotStarted) return;
  phase_ = Phase::Ended;
  poll_timer_.stop();
  if (stream_) stream_->stop();
  ended_at_ = QDateTime::currentDateTime();
  record_.error = why;
  setState(State::Failed);
  emit finished();
}

Run::State RemoteRun::endState(const RemoteStatus& status) const {
  if (!status.queueFailureText().isEmpty()) return State::Failed;  // e.g. the time limit
  if (status.process == RemoteStatus::Process::Exited) {
    const int code = status.exit_code;
    if (code == 0) return State::Finished;
    if (code == kExitInterrupted || code == kExitTerminated) return State::Cancelled;
    if (code == kExitKilled && cancel_ != Cancel::None) return State::Cancelled;
    return State::Failed;
  }
  if (status.queue_state == QLatin1String("CANCELLED")) return State::Cancelled;
  if (status.queue_state == QLatin1String("COMPLETED")) return State::Finished;
  if (cancel_ != Cancel::None && status.process == RemoteStatus::Process::Gone)
    return State::Cancelled;
  return State::Failed;
}

QString RemoteRun::failureText(const RemoteStatus& status) const {
  QString text = failureCause(status);
  if (status.free_kib >= 0 && status.free_kib < kFullDiskKib)
    text += tr("\n(the disk of the run directory on %1 is full: %2 KiB free)")
                .arg(record_.target.name)
                .arg(status.free_kib);
  return text;
}

QString RemoteRun::failureCause(const RemoteStatus& status) const {
  const QString where = record_.target.name;
  const QStringList tail = status.stderr_tail.mid(status.stderr_tail.size() - kErrorTailLines);
  const QString quoted = tail.isEmpty() ? QString() : QStringLiteral(":\n") + tail.join('\n');
  const QString slurm = status.queueFailureText();
  if (!slurm.isEmpty()) return tr("%1 (job %2)").arg(slurm, record_.job_id) + quoted;
  const auto run_end = series()->runEndAfter(ownTelemetryAfter());
  if (run_end && run_end->error) return QString::fromStdString(*run_end->error);
  switch (status.process) {
    case RemoteStatus::Process::Missing:
      return tr("The run directory %1 on %2 is gone").arg(record_.remote_dir, where);
    case RemoteStatus::Process::Gone:
      return tr("moe-train on %1 is gone without an exit status: it was killed, or the machine "
                "restarted")
                 .arg(where) +
             quoted;
    case RemoteStatus::Process::None:
      if (record_.job_id.isEmpty())
        return tr("moe-train was never started in %1 on %2").arg(record_.remote_dir, where);
      if (status.queue_state.isEmpty())
        return tr("Slurm no longer knows job %1 and it left no exit status").arg(record_.job_id) +
               quoted;
      return tr("Slurm job %1 ended (%2) without an exit status")
                 .arg(record_.job_id, status.queue_state) +
             quoted;
    default:
      break;
  }
  if (status.exit_code == kExitNotFound)
    return tr("moe-train could not be started on %1 (exit status 127)").arg(where) + quoted;
  const QString text =
      status.exit_code == kExitBadInput
          ? tr("moe-train on %1 refused its input (exit status 2)").arg(where)
          : tr("moe-train on %1 exited with status %2").arg(where).arg(status.exit_code);
  return text + quoted;
}

}  // namespace moe::ui

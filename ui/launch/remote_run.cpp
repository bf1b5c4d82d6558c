#include "launch/remote_run.h"

#include <QDir>
#include <QFile>
#include <QtConcurrent>

#include <utility>

#include "launch/remote_command.h"
#include "launch/remote_scripts.h"
#include "launch/remote_telemetry_stream.h"
#include "launch/slurm_script.h"
#include "launch/worker_task.h"

namespace moe::ui {

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

}  // namespace

RemoteRun::RemoteRun(RemoteLaunch launch, QObject* parent)
    : Run(parent),
      launch_(std::move(launch)),
      control_(new RemoteChannel(launch_.target, this)),
      status_(new RemoteChannel(launch_.target, this)),
      signal_(new RemoteChannel(launch_.target, this)) {
  record_.target = launch_.target;
  record_.name = launch_.name;
  record_.nproc = launch_.nproc;
  record_.submitted_at = QDateTime::currentDateTime();
  record_.run_id = remoteRunId(launch_.name, record_.submitted_at);
  record_.state = stateName(State::NotStarted);
  local_dir_ = QDir(launch_.local_runs_root).filePath(record_.run_id);
  files_.setMaxThreadCount(1);
  poll_timer_.setInterval(kStatusIntervalMs);
  grace_timer_.setSingleShot(true);
  connect(&poll_timer_, &QTimer::timeout, this, &RemoteRun::pollStatus);
  connect(&grace_timer_, &QTimer::timeout, this, [this] {
    // The interrupt may still be on its way (a slow scancel, ssh): the kill waits for it.
    if (signal_->isBusy()) return grace_timer_.start(kStatusIntervalMs);
    sendCancel(true);
  });
  connect(feed(), &TelemetryFeed::changed, this, &RemoteRun::onTelemetryChanged);
  connect(feed(), &TelemetryFeed::finished, this, [this] {
    if (ending_) finalize();
  });
  connect(control_, &RemoteChannel::finished, this, [this](const RemoteResult& result) {
    record_.remote_dir.isEmpty() ? onPrepared(result) : onStarted(result);
  });
  connect(status_, &RemoteChannel::finished, this, &RemoteRun::onStatus);
  connect(signal_, &RemoteChannel::finished, this, [this](const RemoteResult& result) {
    if (!result.ok()) setConnectionProblem(tr("Cancel: %1").arg(result.message()));
    pollStatus();  // read the state back
  });
}

RemoteRun::RemoteRun(QString local_dir, RemoteRunRecord record, QObject* parent, bool resume)
    : RemoteRun(RemoteLaunch{record.target, {}, record.name, 1, {}, {}}, parent) {
  record_ = std::move(record);
  local_dir_ = std::move(local_dir);
  reattached_ = !resume;
  resuming_ = resume;
  if (resume) {
    record_.error.clear();
    record_.exit_code = -1;
    record_.job_id.clear();  // a resume on Slurm is a new job
  } else {
    started_at_ = record_.submitted_at;
  }
}

bool RemoteRun::canResume() const {
  return (state_ == State::Cancelled || state_ == State::Failed) && !record_.remote_dir.isEmpty() &&
         last_status_.has_checkpoint;
}

Run* RemoteRun::resume(QObject* parent) const {
  return canResume() ? new RemoteRun(local_dir_, record_, parent, true) : nullptr;
}

RemoteRun::~RemoteRun() {
  files_.waitForDone();
}

QString RemoteRun::stateText() const {
  QString text = Run::stateText();
  if (!queue_text_.isEmpty() && state_ == State::Starting) text = queue_text_;
  if (!connection_problem_.isEmpty() && isActive()) text += tr(" (target unreachable)");
  if (!mirror_problem_.isEmpty())
    text += tr(" (telemetry stopped: the local copy cannot be written)");
  return text;
}

void RemoteRun::setState(State state) {
  if (state == state_) return;
  state_ = state;
  record_.state = stateName(state);
  saveRecord();
  emit stateChanged(state);
}

void RemoteRun::saveRecord() {
  if (QDir(local_dir_).exists() || state_ != State::NotStarted)
    (void)QtConcurrent::run(&files_, [record = record_, dir = local_dir_] { record.write(dir); });
}

void RemoteRun::whenRecordWritten(QObject* context, std::function<void()> then) {
  runOnWorker(
      context, [] { return true; }, [then = std::move(then)](bool) { then(); }, &files_);
}

void RemoteRun::start() {
  if (state_ != State::NotStarted) return;
  if (!started_at_.isValid()) started_at_ = QDateTime::currentDateTime();
  setState(State::Starting);
  if (!reattached_ && !resuming_) return prepareLocal();
  if (record_.remote_dir.isEmpty())
    return fail(tr("The app stopped before the run was started on %1.").arg(target()));
  loadHistory();
}

// The history first, from the local copy, parsed on a worker; then follow from its end (after
// starting the engine again, for a resume).
void RemoteRun::loadHistory() {
  const QString mirror = QDir(local_dir_).filePath("metrics.jsonl");
  runOnWorker(
      this,
      [mirror, series = series()] {
        const qint64 size = RemoteTelemetryStream::trimMirror(mirror);
        TelemetryFeed::readFile(mirror, series.get());
        return size;
      },
      [this](qint64 size) {
        start_offset_ = size;
        if (resuming_) {
          own_after_ = series()->version();
          startEngine(QStringLiteral("resume"));
        } else {
          onTelemetryChanged();
          attach(start_offset_);
        }
      });
}

// A new run or a resume ("new", "resume"): detached over SSH, or a batch job.
void RemoteRun::startEngine(const QString& mode) {
  const Target& t = record_.target;
  if (t.kind == Target::Kind::Slurm) {
    if (mode == QLatin1String("resume")) {
      launch_.batch_script = slurmBatchScript(t, record_.name, t.train_program, true);
      (void)QtConcurrent::run(&files_, [dir = local_dir_, script = launch_.batch_script] {
        writeFile(dir + "/remote/job.sh", script.toUtf8());
      });
    }
    control_->run(remote_scripts::kSubmitBatch, {record_.remote_dir, setupCommands()},
                  launch_.batch_script.toUtf8());
    return;
  }
  const QString program = t.train_program.isEmpty() ? QStringLiteral("moe-train") : t.train_program;
  control_->run(remote_scripts::kStartDetached, {record_.remote_dir, setupCommands(), program,
                                                 QString::number(record_.nproc), mode});
}

// The local directory first: the run exists here (and is listed) whatever happens there.
void RemoteRun::prepareLocal() {
  const QStringList problems = launch_.target.validate();
  if (!problems.isEmpty()) return fail(tr("Target %1: %2").arg(target(), problems.join("; ")));
  runOnWorker(
      this,
      [dir = local_dir_, launch = launch_, record = record_]() -> QString {
        if (!QDir().mkpath(dir + "/remote"))
          return QStringLiteral("Cannot make the run's local directory %1").arg(dir);
        writeFile(dir + "/remote/submitted.json", launch.config);
        if (!launch.batch_script.isEmpty())
          writeFile(dir + "/remote/job.sh", launch.batch_script.toUtf8());
        QString error;
        return record.write(dir, &error) ? QString() : error;
      },
      [this](const QString& error) {
        if (!error.isEmpty()) return fail(error);
        if (cancel_requested_) return endUnstarted();
        control_->run(remote_scripts::kPrepare, {launch_.target.runs_root, record_.run_id},
                      launch_.config);
      },
      &files_);
}

void RemoteRun::onPrepared(const RemoteResult& result) {
  const QString dir = QString::fromUtf8(result.out).trimmed();
  if (!result.ok() || dir.isEmpty()) {
    const QString why = result.message();
    return fail(why.contains(QLatin1String("No space left"))
                    ? tr("The disk of %1 is full (runs root %2): %3")
                          .arg(target(), launch_.target.runs_root, why)
                    : tr("Could not make the run directory on %1: %2").arg(target(), why));
  }
  record_.remote_dir = dir;
  saveRecord();
  if (cancel_requested_) return endUnstarted();
  startEngine(QStringLiteral("new"));
}

void RemoteRun::onStarted(const RemoteResult& result) {
  const QString out = QString::fromUtf8(result.out).trimmed();
  if (!result.ok() || out.isEmpty()) {
    const bool slurm = launch_.target.kind == Target::Kind::Slurm;
    return fail(slurm ? tr("Slurm refused the job: %1").arg(result.message())
                      : tr("Could not start moe-train on %1: %2").arg(target(), result.message()));
  }
  if (launch_.target.kind == Target::Kind::Slurm) record_.job_id = out.section(';', 0, 0);
  saveRecord();
  attach(start_offset_);
  if (cancel_requested_) sendCancel(false);
}

void RemoteRun::attach(qint64 offset) {
  stream_ = new RemoteTelemetryStream(record_.target, record_.remote_dir + "/metrics.jsonl",
                                      QDir(local_dir_).filePath("metrics.jsonl"), this);
  connect(stream_, &RemoteTelemetryStream::lines, this,
          [this](const QByteArray& bytes) { receiveTelemetry(bytes); });
  connect(stream_, &RemoteTelemetryStream::connectionLost, this, &RemoteRun::setConnectionProblem);
  connect(stream_, &RemoteTelemetryStream::connectionRestored, this,
          [this] { setConnectionProblem({}); });
  // Every line is in: once the feed has parsed them all, finalize().
  connect(stream_, &RemoteTelemetryStream::caughtUp, feed(), &TelemetryFeed::finish);
  connect(stream_, &RemoteTelemetryStream::mirrorFailed, this, [this](const QString& why) {
    mirror_problem_ = why;
    poll_timer_.stop();  // detached, as if the app had quit: the record stays active
    const QString line =
        tr("[moe-studio] %1; free space here, then open the run again to re-attach").arg(why);
    stderr_lines_ << line;
    emit stderrReceived({line});
    emit stateChanged(state_);
  });
  stream_->start(offset);
  poll_timer_.start();
  pollStatus();
}

void RemoteRun::pollStatus() {
  if (!mirror_problem_.isEmpty() || ending_ || record_.remote_dir.isEmpty() || status_->isBusy())
    return;
  status_->run(remote_scripts::kStatus, {record_.remote_dir, record_.job_id, setupCommands()});
}

void RemoteRun::onStatus(const RemoteResult& result) {
  if (!mirror_problem_.isEmpty()) return;  // detached (a reply already on its way)
  if (!result.ok()) return setConnectionProblem(result.message());
  setConnectionProblem({});
  const RemoteStatus status = RemoteStatus::parse(result.out);
  last_status_ = status;
  addStderrTail(status.stderr_tail);
  const QString queue = status.isQueued() ? (status.queue_reason.isEmpty()
                                                 ? tr("pending")
                                                 : tr("pending: %1").arg(status.queue_reason))
                                          : QString();
  if (queue != queue_text_) {
    queue_text_ = queue;
    emit stateChanged(state_);  // the same state, a new text
  }
  const bool never_started =
      status.process == RemoteStatus::Process::None && record_.job_id.isEmpty();
  if (status.hasEnded() || never_started) onEnded(status);
}

void RemoteRun::setConnectionProblem(const QString& why) {
  if (why == connection_problem_) return;
  connection_problem_ = why;
  if (!why.isEmpty()) {
    const QString line = tr("[moe-studio] %1: %2; trying again").arg(target(), why);
    stderr_lines_ << line;
    emit stderrReceived({line});
  }
  emit stateChanged(state_);
}

// The status shows the last lines of the log: keep only those not seen in the previous window.
void RemoteRun::addStderrTail(const QStringList& tail) {
  qsizetype overlap = std::min(last_tail_.size(), tail.size());
  while (overlap > 0 && last_tail_.mid(last_tail_.size() - overlap) != tail.mid(0, overlap))
    --overlap;
  const QStringList fresh = tail.mid(overlap);
  last_tail_ = tail;
  if (fresh.isEmpty()) return;
  stderr_lines_ << fresh;
  if (stderr_lines_.size() > kStderrLines)
    stderr_lines_.erase(stderr_lines_.begin(), stderr_lines_.end() - kStderrLines);
  emit stderrReceived(fresh);
}

void RemoteRun::onTelemetryChanged() {
  const std::shared_ptr<RunSeries> series = this->series();
  if (total_steps_ == 0 && series->runStartVersion() > own_after_)
    total_steps_ = configInt(series->info().config, "train", "steps", 0);
  if (state_ == State::Starting && series->runStartVersion() > own_after_) {
    queue_text_.clear();
    setState(State::Running);
  }
  const RunSeries::LatestStep latest = series->latestStep();
  if (latest.version <= own_after_ || latest.step == step_) return;
  step_ = latest.step;
  eta_s_ = estimateEtaSeconds(*series, step_, total_steps_);
  emit progressChanged(step_, total_steps_, eta_s_);
}

QString RemoteRun::setupCommands() const {
  return record_.target.setup_commands.join('\n');
}

// Cancelled before moe-train was started there: nothing to stop, nothing lost.
void RemoteRun::endUnstarted() {
  poll_timer_.stop();
  ended_at_ = QDateTime::currentDateTime();
  record_.error = tr("Cancelled before it was started");
  setState(State::Cancelled);
  emit finished();
}

void RemoteRun::cancel() {
  if (state_ == State::NotStarted) {
    cancel_requested_ = true;
    return endUnstarted();
  }
  if (!isActive() || cancel_requested_) return;
  cancel_requested_ = true;
  if (record_.remote_dir.isEmpty() || (record_.job_id.isEmpty() && !stream_)) return;  // later
  sendCancel(stillQueued());  // a queued job has nothing to checkpoint
}

// The last status said queued and no telemetry says otherwise: a small run's first steps can
// arrive before the next status (every 2 s), and a running job must get the interrupt.
bool RemoteRun::stillQueued() const {
  return state_ == State::Starting && last_status_.isQueued();
}

void RemoteRun::sendCancel(bool hard) {
  // A queued job is cancelled outright: it has no steps to lose.
  hard_cancelled_ = hard_cancelled_ || (hard && !stillQueued());
  if (record_.target.kind == Target::Kind::Slurm) {
    signal_->run(remote_scripts::kCancelJob,
                 {record_.job_id, hard ? QString() : QStringLiteral("INT"), setupCommands()});
  } else {
    signal_->run(remote_scripts::kSignalRun,
                 {record_.remote_dir, hard ? QStringLiteral("KILL") : QStringLiteral("INT")});
  }
  if (!hard) grace_timer_.start(kCancelGraceMs);
}

}  // namespace moe::ui

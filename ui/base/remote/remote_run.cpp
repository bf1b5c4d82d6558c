#include "base/remote/remote_run.h"

#include <QDir>
#include <QFile>
#include <QtConcurrent>

#include <utility>

#include "base/remote/remote_command.h"
#include "base/remote/remote_scripts.h"
#include "base/remote/remote_telemetry_stream.h"
#include "base/remote/slurm_script.h"
#include "base/run/run_files.h"
#include "base/storage/worker_task.h"

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
  connect(feed(), &TelemetryFeed::changed, this, &RemoteRun::updateFromTelemetry);
  connect(feed(), &TelemetryFeed::finished, this, [this] {
    if (phase_ == Phase::Ending) finalize();
  });
  connect(control_, &RemoteChannel::finished, this, &RemoteRun::onControlFinished);
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
  origin_ = resume ? Origin::Resumed : Origin::Reattached;
  if (resume) {
    record_.error.clear();
    record_.exit_code = -1;
    record_.job_id.clear();  // a resume on Slurm is a new job
  } else {
    started_at_ = record_.submitted_at;
  }
}

bool RemoteRun::canResume() const {
  return (state() == State::Cancelled || state() == State::Failed) &&
         !record_.remote_dir.isEmpty() && last_status_.has_checkpoint;
}

Run* RemoteRun::resume(QObject* parent) const {
  return canResume() ? new RemoteRun(local_dir_, record_, parent, true) : nullptr;
}

RemoteRun::~RemoteRun() {
  files_.waitForDone();
}

QString RemoteRun::stateText() const {
  QString text = Run::stateText();
  if (!queue_text_.isEmpty() && state() == State::Starting) text = queue_text_;
  if (!connection_problem_.isEmpty() && isActive()) text += tr(" (target unreachable)");
  if (!mirror_problem_.isEmpty())
    text += tr(" (telemetry stopped: the local copy cannot be written)");
  return text;
}

void RemoteRun::stateEntered(State state) {
  if (state == State::Running) queue_text_.clear();
  record_.state = stateName(state);
  saveRecord();
}

void RemoteRun::saveRecord() {
  if (QDir(local_dir_).exists() || state() != State::NotStarted)
    (void)QtConcurrent::run(&files_, [record = record_, dir = local_dir_] { record.write(dir); });
}

void RemoteRun::whenRecordWritten(QObject* context, std::function<void()> then) {
  runOnWorker(
      context, [] { return true; }, [then = std::move(then)](bool) { then(); }, &files_);
}

void RemoteRun::start() {
  if (phase_ != Phase::Idle) return;
  if (!started_at_.isValid()) started_at_ = QDateTime::currentDateTime();
  setState(State::Starting);
  if (origin_ == Origin::New) return prepareLocal();
  if (record_.remote_dir.isEmpty())
    return fail(tr("The app stopped before the run was started on %1.").arg(target()));
  loadHistory();
}

// The history first, from the local copy, parsed on a worker; then follow from its end (after
// starting the engine again, for a resume).
void RemoteRun::loadHistory() {
  phase_ = Phase::LoadingHistory;
  const QString mirror = runFile(local_dir_, run_layout::kMetrics);
  runOnWorker(
      this,
      [mirror, series = series()] {
        const qint64 size = RemoteTelemetryStream::trimMirror(mirror);
        TelemetryFeed::readFile(mirror, series.get());
        return size;
      },
      [this](qint64 size) {
        if (phase_ != Phase::LoadingHistory) return;  // failed meanwhile
        start_offset_ = size;
        if (origin_ == Origin::Resumed) {
          ownTelemetryAfter(series()->version());
          startEngine(QStringLiteral("resume"));
        } else {
          updateFromTelemetry();
          attach(start_offset_);
          if (cancel_ != Cancel::None) sendCancel(false);
        }
      });
}

// A new run or a resume ("new", "resume"): detached over SSH, or a batch job.
void RemoteRun::startEngine(const QString& mode) {
  phase_ = Phase::StartingEngine;
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
  phase_ = Phase::MakingLocalDir;
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
        if (cancel_ != Cancel::None) return endUnstarted();
        phase_ = Phase::MakingRemoteDir;
        control_->run(remote_scripts::kPrepare, {launch_.target.runs_root, record_.run_id},
                      launch_.config);
      },
      &files_);
}

// The one control channel answers the phase that used it.
void RemoteRun::onControlFinished(const RemoteResult& result) {
  if (phase_ == Phase::MakingRemoteDir) return onPrepared(result);
  if (phase_ == Phase::StartingEngine) return onStarted(result);
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
  if (cancel_ != Cancel::None) return endUnstarted();
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
  if (cancel_ != Cancel::None) sendCancel(false);
}

void RemoteRun::attach(qint64 offset) {
  phase_ = Phase::Following;
  stream_ =
      new RemoteTelemetryStream(record_.target, record_.remote_dir + "/" + run_layout::kMetrics,
                                runFile(local_dir_, run_layout::kMetrics), this);
  connect(stream_, &RemoteTelemetryStream::lines, this,
          [this](const QByteArray& bytes) { receiveTelemetry(bytes); });
  connect(stream_, &RemoteTelemetryStream::connectionLost, this, &RemoteRun::setConnectionProblem);
  connect(stream_, &RemoteTelemetryStream::connectionRestored, this,
          [this] { setConnectionProblem({}); });
  // Every line is in: once the feed has parsed them all, finalize().
  connect(stream_, &RemoteTelemetryStream::caughtUp, feed(), &TelemetryFeed::finish);
  connect(stream_, &RemoteTelemetryStream::mirrorFailed, this, &RemoteRun::detach);
  stream_->start(offset);
  poll_timer_.start();
  pollStatus();
}

// Detached, as if the app had quit: the record stays active.
void RemoteRun::detach(const QString& why) {
  if (phase_ != Phase::Following) return;
  phase_ = Phase::Detached;
  mirror_problem_ = why;
  poll_timer_.stop();
  appendStderr(
      {tr("[moe-studio] %1; free space here, then open the run again to re-attach").arg(why)});
  emit stateChanged(state());
}

void RemoteRun::pollStatus() {
  if (phase_ != Phase::Following || status_->isBusy()) return;
  status_->run(remote_scripts::kStatus, {record_.remote_dir, record_.job_id, setupCommands()});
}

void RemoteRun::onStatus(const RemoteResult& result) {
  if (phase_ != Phase::Following) return;  // detached or ending (a reply already on its way)
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
    emit stateChanged(state());  // the same state, a new text
  }
  const bool never_started =
      status.process == RemoteStatus::Process::None && record_.job_id.isEmpty();
  if (status.hasEnded() || never_started) onEnded(status);
}

void RemoteRun::setConnectionProblem(const QString& why) {
  if (why == connection_problem_) return;
  connection_problem_ = why;
  if (!why.isEmpty()) appendStderr({tr("[moe-studio] %1: %2; trying again").arg(target(), why)});
  emit stateChanged(state());
}

// The status shows the last lines of the log: keep only those not seen in the previous window.
void RemoteRun::addStderrTail(const QStringList& tail) {
  qsizetype overlap = std::min(last_tail_.size(), tail.size());
  while (overlap > 0 && last_tail_.mid(last_tail_.size() - overlap) != tail.mid(0, overlap))
    --overlap;
  const QStringList fresh = tail.mid(overlap);
  last_tail_ = tail;
  appendStderr(fresh);
}

QString RemoteRun::setupCommands() const {
  return record_.target.setup_commands.join('\n');
}

// Cancelled before moe-train was started there: nothing to stop, nothing lost.
void RemoteRun::endUnstarted() {
  phase_ = Phase::Ended;
  poll_timer_.stop();
  ended_at_ = QDateTime::currentDateTime();
  record_.error = tr("Cancelled before it was started");
  setState(State::Cancelled);
  emit finished();
}

void RemoteRun::cancel() {
  if (phase_ == Phase::Idle) {
    cancel_ = Cancel::Requested;
    return endUnstarted();
  }
  if (!isActive() || cancel_ != Cancel::None) return;
  cancel_ = Cancel::Requested;
  // Before the engine runs, the phase that starts it sends the cancel (or ends the run unstarted).
  if (phase_ != Phase::Following && phase_ != Phase::Detached) return;
  sendCancel(stillQueued());  // a queued job has nothing to checkpoint
}

// The last status said queued and no telemetry says otherwise: a small run's first steps can
// arrive before the next status (every 2 s), and a running job must get the interrupt.
bool RemoteRun::stillQueued() const {
  return state() == State::Starting && last_status_.isQueued();
}

void RemoteRun::sendCancel(bool hard) {
  // A queued job is cancelled outright: it has no steps to lose.
  if (hard && !stillQueued()) cancel_ = Cancel::Killed;
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

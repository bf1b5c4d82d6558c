#include "base/whatif/replay_server.h"

#include <QTimer>

#include <algorithm>

#include "base/run/launch_spec.h"

namespace moe::ui {

namespace {
constexpr qsizetype kStderrBytes = 8 << 10;  // what is kept of its stderr, for a failure
constexpr int kStopGraceMs = 3000;           // after stdin closes, before the kill
}  // namespace

ReplayServer::ReplayServer(Launch launch, QObject* parent)
    : QObject(parent), launch_(std::move(launch)), process_(this) {
  if (launch_.program.isEmpty()) launch_.program = defaultTrainProgram();
  connect(&process_, &QProcess::readyReadStandardOutput, this, &ReplayServer::readAnswers);
  connect(&process_, &QProcess::readyReadStandardError, this, [this] {
    stderr_ += process_.readAllStandardError();
    if (stderr_.size() > kStderrBytes) stderr_.remove(0, stderr_.size() - kStderrBytes);
  });
  connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) {
      fail(tr("cannot start %1: %2").arg(launch_.program, process_.errorString()));
    }
  });
  connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    stderr_ += process_.readAllStandardError();
    if (state_ == State::Stopped) return;
    const QString how = status == QProcess::CrashExit
                            ? tr("moe-train replay crashed")
                            : tr("moe-train replay exited with status %1").arg(code);
    const QString tail = stderrTail();
    fail(tail.isEmpty() ? how : how + ":\n" + tail);
  });
}

ReplayServer::~ReplayServer() {
  state_ = State::Stopped;
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();  // nothing of it is kept: no need to let it end by itself
    process_.waitForFinished(1000);
  }
}

QStringList ReplayServer::arguments() const {
  QStringList args = {QStringLiteral("replay"),    QStringLiteral("--serve"),
                      QStringLiteral("--config"),  launch_.config_file,
                      QStringLiteral("--tensors"), launch_.tensors};
  if (!launch_.prefix.isEmpty()) args << QStringLiteral("--prefix") << launch_.prefix;
  return args;
}

void ReplayServer::start() {
  if (state_ != State::NotStarted) return;
  state_ = State::Starting;
  process_.start(launch_.program, arguments());
}

void ReplayServer::request(const QString& slot, const RoutingSetting& setting) {
  if (state_ == State::Failed || state_ == State::Stopped) return;
  auto same_slot = [&](const Pending& p) { return p.slot == slot; };
  if (auto it = std::find_if(waiting_.begin(), waiting_.end(), same_slot); it != waiting_.end()) {
    it->setting = setting;  // the newest setting, in the place of the first ask
  } else {
    waiting_.push_back({slot, setting});
  }
  sendNext();
}

void ReplayServer::sendNext() {
  if (state_ != State::Ready || in_flight_ || waiting_.empty()) return;
  InFlight sent;
  sent.id = next_id_++;
  sent.request = waiting_.front();
  waiting_.erase(waiting_.begin());
  const std::string line = replayRequestLine(sent.id, sent.request.setting);
  sent.sent.start();
  in_flight_ = std::move(sent);
  process_.write(line.data(), static_cast<qint64>(line.size()));
}

void ReplayServer::readAnswers() {
  while (process_.canReadLine()) {
    QByteArray line = process_.readLine();
    if (line.endsWith('\n')) line.chop(1);
    if (!line.trimmed().isEmpty()) take(line);
    if (state_ == State::Failed || state_ == State::Stopped) return;
  }
}

void ReplayServer::take(const QByteArray& text) {
  const ReplayLine line = parseReplayLine(std::string_view(text.constData(), text.size()));
  if (state_ == State::Starting) {
    if (line.kind != ReplayLine::Kind::Ready) {
      fail(tr("moe-train replay did not say it was ready: %1").arg(QString::fromUtf8(text)));
      return;
    }
    experts_ = line.experts;
    tokens_ = line.tokens;
    dim_ = line.dim;
    state_ = State::Ready;
    emit ready();
    sendNext();
    return;
  }
  if (line.kind == ReplayLine::Kind::Malformed || line.kind == ReplayLine::Kind::Ready) {
    fail(tr("moe-train replay wrote an unreadable line (%1): %2")
             .arg(line.error, QString::fromUtf8(text)));
    return;
  }
  // An answer to a request no longer in flight is not this one's: left alone.
  if (!in_flight_ || (line.id && *line.id != in_flight_->id)) return;
  InFlight done = std::move(*in_flight_);
  in_flight_.reset();
  if (line.kind == ReplayLine::Kind::Error) {
    emit rejected(done.request.slot, done.request.setting, line.error);
  } else {
    const double ms = static_cast<double>(done.sent.nsecsElapsed()) / 1e6;
    emit answered(done.request.slot, done.request.setting, line.answer, ms);
  }
  sendNext();
}

void ReplayServer::stop() {
  if (state_ == State::Stopped) return;
  state_ = State::Stopped;
  waiting_.clear();
  in_flight_.reset();
  if (process_.state() == QProcess::NotRunning) return;
  process_.closeWriteChannel();
  QTimer::singleShot(kStopGraceMs, this, [this] {
    if (process_.state() != QProcess::NotRunning) process_.kill();
  });
}

void ReplayServer::fail(const QString& error) {
  if (state_ == State::Failed || state_ == State::Stopped) return;
  state_ = State::Failed;
  error_ = error;
  waiting_.clear();
  in_flight_.reset();
  if (process_.state() != QProcess::NotRunning) process_.kill();
  emit failed(error);
}

QString ReplayServer::stderrTail() const {
  return QString::fromUtf8(stderr_).trimmed();
}

}  // namespace moe::ui

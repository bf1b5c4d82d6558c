#include "base/remote/remote_telemetry_stream.h"

#include <QFile>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

#include "base/remote/remote_scripts.h"

namespace moe::ui {

RemoteTelemetryStream::RemoteTelemetryStream(const Target& target, QString remote_file,
                                             QString mirror_file, QObject* parent)
    : QObject(parent),
      remote_file_(std::move(remote_file)),
      mirror_file_(std::move(mirror_file)),
      follow_channel_(new RemoteChannel(target, this)),
      read_channel_(new RemoteChannel(target, this)) {
  mirror_writer_.setMaxThreadCount(1);  // appends in the order they were queued
  retry_.setSingleShot(true);
  connect(&retry_, &QTimer::timeout, this, [this] { finishing_ ? readRest() : follow(); });
  connect(follow_channel_, &RemoteChannel::output, this, &RemoteTelemetryStream::take);
  connect(follow_channel_, &RemoteChannel::finished, this, &RemoteTelemetryStream::onFollowEnded);
  connect(read_channel_, &RemoteChannel::finished, this, &RemoteTelemetryStream::onRestRead);
}

RemoteTelemetryStream::~RemoteTelemetryStream() {
  mirror_writer_.waitForDone();
}

void RemoteTelemetryStream::start(qint64 offset) {
  offset_ = received_ = offset;
  mirror_failed_->store(false);
  done_ = finishing_ = false;
  follow();
}

void RemoteTelemetryStream::follow() {
  partial_.clear();  // a cut line comes again whole: following restarts at its first byte
  following_ = true;
  follow_channel_->follow(remote_scripts::kFollow, {remote_file_, QString::number(received_)});
}

void RemoteTelemetryStream::stop() {
  retry_.stop();
  following_ = false;
  follow_channel_->stop();
}

void RemoteTelemetryStream::finish() {
  if (finishing_) return;
  finishing_ = true;
  retry_.stop();
  if (follow_channel_->isBusy()) {
    follow_channel_->stop();  // onFollowEnded reads the rest
  } else {
    readRest();
  }
}

void RemoteTelemetryStream::take(const QByteArray& bytes) {
  if (mirror_failed_->load()) return;
  if (lost_) {
    lost_ = false;
    retry_ms_ = kFirstRetryMs;
    emit connectionRestored();
  }
  partial_ += bytes;
  const qsizetype end = partial_.lastIndexOf('\n') + 1;
  if (end == 0) return;
  const QByteArray complete = partial_.left(end);
  partial_.remove(0, end);
  received_ += complete.size();
  (void)QtConcurrent::run(&mirror_writer_, [this, path = mirror_file_, complete,
                                            failed = mirror_failed_] {
    if (failed->load()) return;
    QFile file(path);
    QString error;
    if (!file.open(QIODevice::Append) || file.write(complete) != complete.size() || !file.flush())
      error = file.errorString();
    if (!error.isEmpty()) failed->store(true);
    QMetaObject::invokeMethod(
        this, [this, complete, error] { onMirrorWritten(complete, error); }, Qt::QueuedConnection);
  });
}

// On the GUI thread, in the order of the appends.
void RemoteTelemetryStream::onMirrorWritten(const QByteArray& complete, const QString& error) {
  if (!error.isEmpty()) {
    stop();
    finishing_ = false;
    emit mirrorFailed(tr("cannot append to the local copy %1 (%2): telemetry stopped at byte %3")
                          .arg(mirror_file_, error)
                          .arg(offset_));
    return;
  }
  offset_ += complete.size();
  emit lines(complete);
}

void RemoteTelemetryStream::onFollowEnded(const RemoteResult& result) {
  following_ = false;
  if (finishing_) {
    readRest();
  } else if (!result.stopped) {
    retryLater(result.connection_error.isEmpty()
                   ? QStringLiteral("following metrics.jsonl stopped (%1)").arg(result.message())
                   : result.connection_error);
  }
}

void RemoteTelemetryStream::readRest() {
  partial_.clear();
  read_channel_->run(remote_scripts::kRead, {remote_file_, QString::number(received_)});
}

void RemoteTelemetryStream::onRestRead(const RemoteResult& result) {
  if (!result.ok()) {
    retryLater(result.message());
    return;
  }
  take(result.out);
  // A last line without a newline is one a crash cut short: not telemetry.
  partial_.clear();
  done_ = true;
  // After the mirror's last append (the writer runs its tasks in order): the local copy is then
  // whole when the run is said to have ended.
  (void)QtConcurrent::run(&mirror_writer_, [this, failed = mirror_failed_] {
    if (failed->load()) return;  // mirrorFailed() said it: the local copy is not whole
    QMetaObject::invokeMethod(this, &RemoteTelemetryStream::caughtUp, Qt::QueuedConnection);
  });
}

void RemoteTelemetryStream::retryLater(const QString& why) {
  if (!lost_) {
    lost_ = true;
    emit connectionLost(why);
  }
  retry_.start(retry_ms_);
  retry_ms_ = std::min(retry_ms_ * 2, kMaxRetryMs);
}

qint64 RemoteTelemetryStream::trimMirror(const QString& mirror_file) {
  constexpr qint64 kChunk = 64 * 1024;
  QFile file(mirror_file);
  if (!file.open(QIODevice::ReadWrite)) return 0;
  // Back from the end, a chunk at a time, to the last newline.
  qint64 end = file.size();
  while (end > 0) {
    const qint64 from = std::max<qint64>(0, end - kChunk);
    file.seek(from);
    const qsizetype newline = file.read(end - from).lastIndexOf('\n');
    if (newline >= 0) {
      end = from + newline + 1;
      break;
    }
    end = from;
  }
  if (end < file.size()) file.resize(end);
  return end;
}

}  // namespace moe::ui

#include "base/telemetry/telemetry_feed.h"

#include <QFile>
#include <QMetaObject>

#include <string_view>
#include <utility>
#include <vector>

namespace moe::ui {

namespace {

// Events are applied in batches: one version and one short hold of the series' lock per batch,
// small enough that a redraw waiting for the lock waits well under a millisecond.
constexpr size_t kApplyBatch = 512;
constexpr qint64 kFileChunk = 1 << 20;

// Parses `bytes` into `series`; true if any event was applied.
bool parseInto(protocol::TelemetryReader& reader, std::string_view bytes, bool end_of_stream,
               RunSeries& series) {
  std::vector<protocol::TelemetryEvent> batch;
  bool applied = false;
  auto flush = [&] {
    if (batch.empty()) return;
    series.apply(batch);
    batch.clear();
    applied = true;
  };
  reader.feed(bytes, [&](protocol::TelemetryEvent&& e) {
    batch.push_back(std::move(e));
    if (batch.size() >= kApplyBatch) flush();
  });
  if (end_of_stream) {
    for (auto& e : reader.finish()) batch.push_back(std::move(e));
  }
  flush();
  return applied;
}

void copyReaderStats(const protocol::TelemetryReader& reader, TelemetryFeed::Stats* stats) {
  const protocol::TelemetryReaderStats& s = reader.stats();
  stats->lines = s.lines;
  stats->events = s.events;
  stats->unknown = s.unknown;
  stats->malformed = s.malformed;
  stats->last_error = QString::fromStdString(reader.last_error());
}

}  // namespace

TelemetryFeed::TelemetryFeed(QObject* parent)
    : TelemetryFeed(std::make_shared<RunSeries>(), parent) {}

TelemetryFeed::TelemetryFeed(std::shared_ptr<RunSeries> series, QObject* parent)
    : QObject(parent), series_(std::move(series)), worker_(new QObject) {
  thread_.setObjectName(QStringLiteral("TelemetryFeed"));
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_.start();
  timer_.setSingleShot(true);
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (dirty_) emitChanged();
  });
}

TelemetryFeed::~TelemetryFeed() {
  stopping_ = true;  // a file load stops at its next chunk
  thread_.quit();
  thread_.wait();
}

TelemetryFeed::Stats TelemetryFeed::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

qsizetype TelemetryFeed::pendingBytes() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

void TelemetryFeed::feed(const QByteArray& bytes) {
  if (bytes.isEmpty()) return;
  std::lock_guard lock(mutex_);
  pending_.append(bytes);
  if (!drain_posted_) {
    drain_posted_ = true;
    QMetaObject::invokeMethod(
        worker_, [this] { drainOnWorker(); }, Qt::QueuedConnection);
  }
}

void TelemetryFeed::finish() {
  std::lock_guard lock(mutex_);
  finish_requested_ = true;
  if (!drain_posted_) {
    drain_posted_ = true;
    QMetaObject::invokeMethod(
        worker_, [this] { drainOnWorker(); }, Qt::QueuedConnection);
  }
}

void TelemetryFeed::loadFile(const QString& path, bool more_follows) {
  QMetaObject::invokeMethod(
      worker_, [this, path, more_follows] { loadOnWorker(path, more_follows); },
      Qt::QueuedConnection);
}

void TelemetryFeed::drainOnWorker() {
  QByteArray bytes;
  bool end_of_stream;
  {
    std::lock_guard lock(mutex_);
    bytes.swap(pending_);
    end_of_stream = finish_requested_;
    finish_requested_ = drain_posted_ = false;
  }
  parseOnWorker(bytes.constData(), bytes.size(), end_of_stream);
  if (end_of_stream) QMetaObject::invokeMethod(this, &TelemetryFeed::onWorkerDone);
}

void TelemetryFeed::loadOnWorker(const QString& path, bool more_follows) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    const QString error = path + QStringLiteral(": ") + file.errorString();
    QMetaObject::invokeMethod(this, [this, error] { emit loadFailed(error); });
    QMetaObject::invokeMethod(this, &TelemetryFeed::onWorkerDone);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    stats_.file_bytes = file.size();
  }
  QByteArray chunk;
  while (!stopping_) {
    chunk = file.read(kFileChunk);
    parseOnWorker(chunk.constData(), chunk.size(), chunk.isEmpty() && !more_follows);
    if (chunk.isEmpty()) break;
  }
  QMetaObject::invokeMethod(this, &TelemetryFeed::onWorkerDone);
}

void TelemetryFeed::parseOnWorker(const char* data, qsizetype size, bool end_of_stream) {
  const bool applied = parseInto(reader_, std::string_view(data, static_cast<size_t>(size)),
                                 end_of_stream, *series_);
  {
    std::lock_guard lock(mutex_);
    stats_.bytes += size;
    copyReaderStats(reader_, &stats_);
  }
  if (applied) postApplied();
}

// One queued notification at a time: however fast the worker applies, the GUI thread's event
// queue holds at most one of these.
void TelemetryFeed::postApplied() {
  if (!notify_posted_.exchange(true)) {
    QMetaObject::invokeMethod(this, &TelemetryFeed::onApplied, Qt::QueuedConnection);
  }
}

void TelemetryFeed::onApplied() {
  notify_posted_ = false;
  dirty_ = true;
  if (timer_.isActive()) return;
  const qint64 elapsed = since_emit_.isValid() ? since_emit_.elapsed() : interval_ms_;
  if (elapsed >= interval_ms_) {
    emitChanged();
  } else {
    timer_.start(static_cast<int>(interval_ms_ - elapsed));
  }
}

void TelemetryFeed::onWorkerDone() {
  // Queued after the worker's last onApplied, so the series is complete: report it now.
  if (dirty_) {
    timer_.stop();
    emitChanged();
  }
  emit finished();
}

void TelemetryFeed::emitChanged() {
  dirty_ = false;
  since_emit_.restart();
  emit changed();
}

bool TelemetryFeed::readFile(const QString& path, RunSeries* series, Stats* stats, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = path + QStringLiteral(": ") + file.errorString();
    return false;
  }
  protocol::TelemetryReader reader;
  Stats s;
  s.file_bytes = file.size();
  for (;;) {
    const QByteArray chunk = file.read(kFileChunk);
    parseInto(reader, std::string_view(chunk.constData(), static_cast<size_t>(chunk.size())),
              chunk.isEmpty(), *series);
    s.bytes += chunk.size();
    if (chunk.isEmpty()) break;
  }
  copyReaderStats(reader, &s);
  if (stats) *stats = s;
  return true;
}

}  // namespace moe::ui

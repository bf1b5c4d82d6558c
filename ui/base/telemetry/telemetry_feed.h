// TelemetryFeed: telemetry bytes in (a moe-train process's stdout, or a whole metrics.jsonl),
// parsed on a worker thread into a RunSeries, and a coalesced changed() out for the GUI.
//
// Nothing slow happens on the thread that owns the feed: feed() only appends to a buffer and
// wakes the worker; the worker parses (moe::protocol::TelemetryReader), applies the events to
// the series under its lock, and tells the GUI thread. changed() fires at most once per
// notifyInterval() (default 40 ms, the dashboard's redraw rate), never once per line: the first
// change after a quiet spell is reported at once, later ones at the end of the interval.
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>

#include "base/telemetry/run_series.h"
#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui {

class TelemetryFeed : public QObject {
  Q_OBJECT

 public:
  struct Stats {
    qint64 bytes = 0;       // bytes parsed so far
    qint64 file_bytes = 0;  // size of the file being loaded (loadFile), else 0
    qint64 lines = 0;       // non-blank lines
    qint64 events = 0;
    qint64 unknown = 0;    // unknown type or newer version: skipped
    qint64 malformed = 0;  // not telemetry (oversized lines included): counted, skipped
    QString last_error;    // why the latest malformed line was malformed
  };

  // Feeds a series of its own, or `series` (shared: a Run and its dashboard both hold it).
  explicit TelemetryFeed(QObject* parent = nullptr);
  explicit TelemetryFeed(std::shared_ptr<RunSeries> series, QObject* parent = nullptr);
  ~TelemetryFeed() override;

  std::shared_ptr<RunSeries> series() const { return series_; }
  Stats stats() const;
  // Bytes handed to feed() and not yet taken by the worker: how far parsing is behind.
  qsizetype pendingBytes() const;

  int notifyInterval() const { return interval_ms_; }
  void setNotifyInterval(int ms) { interval_ms_ = ms; }

  // Reads a whole metrics.jsonl into `series` on the calling thread (for code that is already
  // off the GUI thread, e.g. indexing run directories). False with *error when it cannot be read.
  static bool readFile(const QString& path, RunSeries* series, Stats* stats = nullptr,
                       QString* error = nullptr);

 public slots:
  // Hands over a chunk; lines may be cut anywhere. Thread-safe, returns at once.
  void feed(const QByteArray& bytes);
  // End of the stream: a last line without a newline is parsed too; then finished().
  void finish();
  // Replays a metrics.jsonl (a finished, running or copied run directory) on the worker, in
  // chunks, with changed() as it goes; loadFailed() if it cannot be read; then finished().
  // `more_follows`: the file may still be written, so a last line without a newline waits for
  // the rest of it (handed over later with feed()) instead of being parsed as it is.
  void loadFile(const QString& path, bool more_follows = false);

 signals:
  void changed();
  // Everything handed over before finish() or loadFile() is parsed and in the series.
  void finished();
  void loadFailed(const QString& error);

 private:
  void drainOnWorker();
  void loadOnWorker(const QString& path, bool more_follows);
  void parseOnWorker(const char* data, qsizetype size, bool end_of_stream);
  void postApplied();
  void onApplied();
  void onWorkerDone();
  void emitChanged();

  std::shared_ptr<RunSeries> series_;
  int interval_ms_ = 40;

  // Shared with the worker.
  mutable std::mutex mutex_;
  QByteArray pending_;
  bool drain_posted_ = false, finish_requested_ = false;
  Stats stats_;
  std::atomic<bool> notify_posted_{false}, stopping_{false};

  // Worker only.
  protocol::TelemetryReader reader_;

  // GUI side.
  QThread thread_;
  QObject* worker_;  // lives on thread_; the context of the worker's queued calls
  QTimer timer_;
  QElapsedTimer since_emit_;
  bool dirty_ = false;
};

}  // namespace moe::ui

// RunDashboard over a run directory: replaying its metrics.jsonl, following the file while the
// run has no run_end, and its stderr.log in the log pane.
#include <QFile>

#include "base/run/run_files.h"
#include "base/telemetry/telemetry_feed.h"
#include "dashboard/run_dashboard.h"

namespace moe::ui {

namespace {
constexpr int kFollowMs = 1000;            // how often a replay looks for appended telemetry
constexpr qint64 kFollowChunk = 8 << 20;   // the most it reads at a time
constexpr qint64 kLogTailBytes = 1 << 20;  // the end of stderr.log the log pane shows
}  // namespace

RunDashboard* RunDashboard::replay(const QString& run_dir, QWidget* parent) {
  auto* feed = new TelemetryFeed;
  auto* dashboard = new RunDashboard(feed->series(), nullptr, run_dir, parent);
  feed->setParent(dashboard);
  dashboard->replay_feed_ = feed;
  connect(feed, &TelemetryFeed::loadFailed, dashboard, &RunDashboard::loadFailed);
  connect(feed, &TelemetryFeed::finished, dashboard, [dashboard] {
    dashboard->refresh();
    emit dashboard->replayFinished();
    dashboard->followFile();
  });
  // The run may still be training (another session, another machine writing to a shared
  // folder): its file is read to the end, then followed until run_end arrives.
  connect(&dashboard->follow_timer_, &QTimer::timeout, dashboard, &RunDashboard::followFile);
  feed->loadFile(runFile(run_dir, run_layout::kMetrics), true);
  dashboard->loadLogFile();
  return dashboard;
}

// Reads what was appended to metrics.jsonl since the last look; stops at runEnd (or when the
// file shrank: it is not the file that was read).
void RunDashboard::followFile() {
  if (!replay_feed_ || series_->runEnd()) {
    if (follow_timer_.isActive()) replay_feed_->finish();  // the end: a final replayFinished
    follow_timer_.stop();
    return;
  }
  if (!follow_timer_.isActive()) {
    follow_offset_ = replay_feed_->stats().bytes;
    follow_timer_.start(kFollowMs);
    return;
  }
  QFile file(runFile(run_dir_, run_layout::kMetrics));
  if (!file.open(QIODevice::ReadOnly) || file.size() < follow_offset_) {
    follow_timer_.stop();
    return;
  }
  file.seek(follow_offset_);
  const QByteArray bytes = file.read(kFollowChunk);
  follow_offset_ += bytes.size();
  replay_feed_->feed(bytes);
}

// A replayed run's human log: its stderr.log, the last lines of it.
void RunDashboard::loadLogFile() {
  QFile file(run_dir_ + "/stderr.log");
  log_from_events_ = !file.open(QIODevice::ReadOnly);  // then the telemetry's log events
  if (log_from_events_) return;
  if (file.size() > kLogTailBytes) file.seek(file.size() - kLogTailBytes);
  appendLog(QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts));
}

}  // namespace moe::ui

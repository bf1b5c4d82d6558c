#include "base/runs/live_run_recorder.h"

#include "base/run/run.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_manager.h"

namespace moe::ui {

LiveRunRecorder::LiveRunRecorder(RunManager* runs, QObject* parent) : QObject(parent), runs_(runs) {
  // Once when it starts running, once when it has ended with all its telemetry read (the
  // ending states come before that, so they are left to runFinished).
  connect(runs, &RunManager::runStateChanged, this, [this](Run* run, Run::State state) {
    if (state == Run::State::Running) record(run);
  });
  connect(runs, &RunManager::runFinished, this, [this](Run* run) { record(run); });
  timer_.setInterval(kRefreshMs);
  connect(&timer_, &QTimer::timeout, this, &LiveRunRecorder::recordActive);
  timer_.start();
}

std::optional<RunRecord> LiveRunRecorder::summarize(const Run& run) {
  const QString dir = run.runDir();
  if (dir.isEmpty() || !run.series()->info().started) return std::nullopt;
  RunRecord record = summarizeSeries(*run.series(), dir, run.isActive());
  record.target = run.target();  // "local", or the remote target's name
  // The process knows how it ended even when it could not say so in telemetry (a crash, a kill).
  if (run.state() == Run::State::Failed) {
    record.status = run_status::kFailed;
    if (record.error.isEmpty()) record.error = run.errorText();
  }
  if (run.state() == Run::State::Cancelled) record.status = run_status::kCancelled;
  if (!run.isActive() && run.endedAt().isValid()) record.ended_at = run.endedAt();
  return record;
}

bool LiveRunRecorder::record(Run* run) {
  const auto record = summarize(*run);
  if (record) emit runRecorded(*record);
  return record.has_value();
}

void LiveRunRecorder::recordActive() {
  for (Run* run : runs_->activeRuns()) record(run);
}

}  // namespace moe::ui

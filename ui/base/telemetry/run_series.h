// RunSeries: the in-memory record of one run's telemetry (docs/PROTOCOL.md, "Telemetry"), what the
// dashboard draws. Plain C++ and one mutex: a TelemetryFeed's worker thread applies parsed events,
// the GUI thread copies what it draws. Every read takes the lock once, for as long as it takes to
// copy what was asked for, so the GUI never waits on parsing and the parser never waits long on a
// redraw.
//
// Series are sorted by step. An event for a step already held replaces it: a resumed run repeats
// the steps after its checkpoint. A second run_start (the resume) clears run_end again.
//
// Two ways to read: snapshot(range) copies every series within a step range (a redraw of a
// window, an export); changesSince(version) copies only the rows changed after a version the
// reader holds (a model that keeps its own plot data in step with the run).
//
// Memory: per logged step, about 104 bytes for the step row, 80 for phases, and per MoE layer
// 80 bytes of metrics plus 2 bytes per expert (uint16 counts, widened to int32 only when a count
// exceeds 65535; kept derived from min(count, capacity)); importance for the newest row only. A
// multi-process run adds 16 bytes plus 24 per rank (float figures) for its ranks event.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "base/telemetry/change_log.h"
#include "base/telemetry/layer_store.h"
#include "base/telemetry/rank_store.h"
#include "base/telemetry/series_columns.h"
#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui {

class RunSeries {
 public:
  // The log keeps the newest lines only; the full log is in the run directory.
  static constexpr size_t kMaxLogLines = 10000;
  // run_start's train.steps reserves room for the whole run up front (no reallocation copies, no
  // heap holes), but never more rows than this: a typo of 1e9 steps must not reserve gigabytes.
  static constexpr size_t kMaxReservedRows = 250000;

  RunSeries() = default;
  RunSeries(const RunSeries&) = delete;
  RunSeries& operator=(const RunSeries&) = delete;

  // Writer side. One call is one new version; events are moved from.
  void apply(std::vector<protocol::TelemetryEvent>& events);
  void apply(protocol::TelemetryEvent event);
  void clear();

  // Grows with every apply() and clear(); 0 before the first. Lock-free.
  uint64_t version() const { return version_.load(std::memory_order_acquire); }

  RunSnapshot snapshot(const StepRange& range = StepRange::all()) const;
  RunSnapshot changesSince(uint64_t version) const;

  // Single series, for a widget that needs one thing.
  RunInfo info() const;
  StepColumns steps(const StepRange& range = StepRange::all()) const;
  PhaseColumns phases(const StepRange& range = StepRange::all()) const;
  std::vector<int64_t> layers() const;  // the MoE layers seen, ascending
  std::optional<LayerColumns> layer(int64_t layer, const StepRange& range = StepRange::all()) const;
  // One layer's expert_load at `step` (or the latest before it); the newest without a step.
  // importance is only held for a layer's newest row: empty for any older row.
  std::optional<protocol::ExpertLoadEvent> expertLoad(int64_t layer,
                                                      std::optional<int64_t> step = {}) const;
  // Every layer's newest expertLoad (the layers x experts view), by layer.
  std::vector<protocol::ExpertLoadEvent> latestExpertLoads() const;
  // Experts x steps of one layer, averaged into at most `max_bins` bins (the heatmap).
  LoadMatrix loadMatrix(int64_t layer, const StepRange& range, size_t max_bins,
                        LoadValue value = LoadValue::kCounts) const;
  // A multi-process run's per-rank figures (empty for a single process), and its ranks x steps
  // step times averaged into at most `max_bins` bins (the heatmap).
  RankColumns ranks(const StepRange& range = StepRange::all()) const;
  RankMatrix rankMatrix(const StepRange& range, size_t max_bins) const;
  std::vector<protocol::AdaptiveREvent> adaptiveR() const;  // by step
  std::vector<protocol::CaptureEvent> captures() const;     // by step, then layer
  std::vector<protocol::EvalEvent> evals() const;
  std::vector<protocol::CheckpointEvent> checkpoints() const;
  std::optional<protocol::RunEndEvent> runEnd() const;
  RunSeriesStats stats() const;

  // What arrived after `version`, for a reader that loaded a run's history first and then
  // follows a new process (a resume): that process's own start, latest step and ending, never
  // the history's. A step here is the one applied last, which after a resume is not the highest
  // step held (the old attempt may have got further than the checkpoint).
  struct LatestStep {
    int64_t step = 0;
    double t = 0;
    uint64_t version = 0;  // 0: no step yet
  };
  LatestStep latestStep() const;
  uint64_t runStartVersion() const;  // the version that applied the latest run_start; 0: none
  std::optional<protocol::RunEndEvent> runEndAfter(uint64_t version) const;

 private:
  void take(protocol::RunStartEvent& e, uint64_t version);
  void take(protocol::StepEvent& e, uint64_t version);
  void take(protocol::ExpertLoadEvent& e, uint64_t version);
  void take(protocol::PhasesEvent& e, uint64_t version);
  void take(protocol::EvalEvent& e, uint64_t version);
  void take(protocol::CheckpointEvent& e, uint64_t version);
  void take(protocol::LogEvent& e, uint64_t version);
  void take(protocol::RunEndEvent& e, uint64_t version);
  void take(protocol::RanksEvent& e, uint64_t version);
  void take(protocol::AdaptiveREvent& e, uint64_t version);
  void take(protocol::CaptureEvent& e, uint64_t version);

  void fillSmallRecords(RunSnapshot* out) const;
  RunSeriesStats statsLocked() const;
  PhaseColumns phasesLocked(const StepRange& range) const;

  mutable std::mutex mutex_;
  std::atomic<uint64_t> version_{0};
  uint64_t cleared_version_ = 0;  // readers older than this start over
  size_t expected_rows_ = 0;      // rows to reserve for a new series

  RunInfo info_;
  StepColumns steps_;
  detail::ChangeLog step_changes_;
  std::map<int64_t, detail::LayerStore> layers_;
  PhaseColumns phases_;
  detail::ChangeLog phase_changes_;
  std::vector<protocol::EvalEvent> evals_;
  std::vector<protocol::CheckpointEvent> checkpoints_;
  detail::RankStore ranks_;
  std::vector<RunRestart> restarts_;
  std::vector<protocol::AdaptiveREvent> adaptive_r_;
  std::vector<protocol::CaptureEvent> captures_;
  std::deque<std::pair<uint64_t, protocol::LogEvent>> logs_;  // with the version that added it
  std::optional<protocol::RunEndEvent> run_end_;
  uint64_t run_start_version_ = 0, run_end_version_ = 0;
  LatestStep latest_step_;
  int64_t events_ = 0, rejected_ = 0, logs_dropped_ = 0;
};

// Logged rows a run of this config will produce (train.steps / telemetry.every, plus the last),
// at most RunSeries::kMaxReservedRows; 0 when the config does not say.
size_t expectedRows(const nlohmann::json& config);

// config[section][key] when it is an integer, else `fallback` (e.g. train.steps of run_start's
// resolved config).
int64_t configInt(const nlohmann::json& config, const char* section, const char* key,
                  int64_t fallback);

}  // namespace moe::ui

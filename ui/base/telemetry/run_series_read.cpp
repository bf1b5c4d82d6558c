// RunSeries, reader side: copies under the lock (run_series.h).
#include <algorithm>
#include <limits>

#include "base/telemetry/column_ops.h"
#include "base/telemetry/run_series.h"

namespace moe::ui {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

RunSnapshot RunSeries::snapshot(const StepRange& range) const {
  RunSnapshot out;
  std::lock_guard lock(mutex_);
  out.version = version_.load(std::memory_order_relaxed);
  out.reset = true;
  out.steps.replace_from = range.first;
  auto [begin, end] = detail::rowsIn(steps_.step, range);
  detail::copyRows(steps_.columns(), out.steps.columns(), begin, end);
  for (const auto& [index, layer] : layers_) out.layers.push_back(layer.columns(range));
  out.phases = phasesLocked(range);
  out.ranks = ranks_.columns(range);
  for (const auto& [v, line] : logs_) out.logs.push_back(line);
  fillSmallRecords(&out);
  return out;
}

RunSnapshot RunSeries::changesSince(uint64_t version) const {
  std::unique_lock lock(mutex_);
  if (version == 0 || version < cleared_version_) {
    lock.unlock();
    return snapshot();
  }
  RunSnapshot out;
  out.version = version_.load(std::memory_order_relaxed);
  if (auto from = step_changes_.since(version)) {
    out.steps.replace_from = *from;
    auto [begin, end] = detail::rowsIn(steps_.step, StepRange::between(*from, kInf));
    detail::copyRows(steps_.columns(), out.steps.columns(), begin, end);
  } else {
    out.steps.replace_from = kInf;  // nothing to replace
  }
  for (const auto& [index, layer] : layers_) {
    if (auto changed = layer.changesSince(version)) out.layers.push_back(std::move(*changed));
  }
  if (auto from = phase_changes_.since(version)) {
    out.phases = phasesLocked(StepRange::between(*from, kInf));
    out.phases.replace_from = *from;
  } else {
    out.phases.names = phases_.names;
    out.phases.ms.resize(phases_.names.size());
    out.phases.replace_from = kInf;
  }
  if (auto changed = ranks_.changesSince(version)) {
    out.ranks = std::move(*changed);
  } else {
    out.ranks.replace_from = kInf;
  }
  // Log versions only grow: the new lines are a tail.
  auto first_new = std::partition_point(logs_.begin(), logs_.end(),
                                        [&](const auto& entry) { return entry.first <= version; });
  for (auto it = first_new; it != logs_.end(); ++it) out.logs.push_back(it->second);
  fillSmallRecords(&out);
  return out;
}

void RunSeries::fillSmallRecords(RunSnapshot* out) const {
  out->info = info_;
  out->restarts = restarts_;
  out->adaptive_r = adaptive_r_;
  out->captures = captures_;
  out->evals = evals_;
  out->checkpoints = checkpoints_;
  out->run_end = run_end_;
  out->stats = statsLocked();
}

PhaseColumns RunSeries::phasesLocked(const StepRange& range) const {
  PhaseColumns out;
  out.replace_from = range.first;
  out.names = phases_.names;
  auto [begin, end] = detail::rowsIn(phases_.step, range);
  auto slice = [&](const std::vector<double>& c) {
    return std::vector<double>(c.begin() + static_cast<std::ptrdiff_t>(begin),
                               c.begin() + static_cast<std::ptrdiff_t>(end));
  };
  out.step = slice(phases_.step);
  out.t = slice(phases_.t);
  for (const auto& column : phases_.ms) out.ms.push_back(slice(column));
  return out;
}

RunInfo RunSeries::info() const {
  std::lock_guard lock(mutex_);
  return info_;
}

StepColumns RunSeries::steps(const StepRange& range) const {
  StepColumns out;
  out.replace_from = range.first;
  std::lock_guard lock(mutex_);
  auto [begin, end] = detail::rowsIn(steps_.step, range);
  detail::copyRows(steps_.columns(), out.columns(), begin, end);
  return out;
}

PhaseColumns RunSeries::phases(const StepRange& range) const {
  std::lock_guard lock(mutex_);
  return phasesLocked(range);
}

std::vector<int64_t> RunSeries::layers() const {
  std::lock_guard lock(mutex_);
  std::vector<int64_t> out;
  for (const auto& [index, layer] : layers_) out.push_back(index);
  return out;
}

std::optional<LayerColumns> RunSeries::layer(int64_t layer, const StepRange& range) const {
  std::lock_guard lock(mutex_);
  auto it = layers_.find(layer);
  if (it == layers_.end()) return std::nullopt;
  return it->second.columns(range);
}

std::optional<protocol::ExpertLoadEvent> RunSeries::expertLoad(int64_t layer,
                                                               std::optional<int64_t> step) const {
  std::lock_guard lock(mutex_);
  auto it = layers_.find(layer);
  if (it == layers_.end()) return std::nullopt;
  return it->second.row(step ? std::optional<double>(static_cast<double>(*step)) : std::nullopt);
}

std::vector<protocol::ExpertLoadEvent> RunSeries::latestExpertLoads() const {
  std::lock_guard lock(mutex_);
  std::vector<protocol::ExpertLoadEvent> out;
  for (const auto& [index, layer] : layers_) {
    if (auto row = layer.row(std::nullopt)) out.push_back(std::move(*row));
  }
  return out;
}

LoadMatrix RunSeries::loadMatrix(int64_t layer, const StepRange& range, size_t max_bins,
                                 LoadValue value) const {
  std::lock_guard lock(mutex_);
  auto it = layers_.find(layer);
  if (it == layers_.end()) {
    LoadMatrix none;
    none.layer = layer;
    return none;
  }
  return it->second.matrix(range, max_bins, value);
}

RankColumns RunSeries::ranks(const StepRange& range) const {
  std::lock_guard lock(mutex_);
  return ranks_.columns(range);
}

RankMatrix RunSeries::rankMatrix(const StepRange& range, size_t max_bins) const {
  std::lock_guard lock(mutex_);
  return ranks_.matrix(range, max_bins);
}

std::vector<protocol::AdaptiveREvent> RunSeries::adaptiveR() const {
  std::lock_guard lock(mutex_);
  return adaptive_r_;
}

std::vector<protocol::CaptureEvent> RunSeries::captures() const {
  std::lock_guard lock(mutex_);
  return captures_;
}

std::vector<protocol::EvalEvent> RunSeries::evals() const {
  std::lock_guard lock(mutex_);
  return evals_;
}

std::vector<protocol::CheckpointEvent> RunSeries::checkpoints() const {
  std::lock_guard lock(mutex_);
  return checkpoints_;
}

std::optional<protocol::RunEndEvent> RunSeries::runEnd() const {
  std::lock_guard lock(mutex_);
  return run_end_;
}

RunSeries::LatestStep RunSeries::latestStep() const {
  std::lock_guard lock(mutex_);
  return latest_step_;
}

uint64_t RunSeries::runStartVersion() const {
  std::lock_guard lock(mutex_);
  return run_start_version_;
}

std::optional<protocol::RunEndEvent> RunSeries::runEndAfter(uint64_t version) const {
  std::lock_guard lock(mutex_);
  if (run_end_version_ <= version) return std::nullopt;
  return run_end_;
}

RunSeriesStats RunSeries::stats() const {
  std::lock_guard lock(mutex_);
  return statsLocked();
}

RunSeriesStats RunSeries::statsLocked() const {
  RunSeriesStats s;
  s.events = events_;
  s.rejected = rejected_;
  s.logs_dropped = logs_dropped_;
  s.step_rows = steps_.size();
  s.bytes = detail::columnBytes(steps_.columns()) +
            (phases_.step.capacity() + phases_.t.capacity()) * sizeof(double);
  for (const auto& column : phases_.ms) s.bytes += column.capacity() * sizeof(double);
  for (const auto& [index, layer] : layers_) {
    s.layer_rows += layer.rows();
    s.bytes += layer.bytes();
    s.wide_counts = s.wide_counts || layer.wide();
  }
  s.rank_rows = ranks_.rows();
  s.bytes += ranks_.bytes();
  for (const auto& [v, line] : logs_) s.bytes += sizeof(line) + 16 + line.msg.capacity();
  s.bytes += evals_.capacity() * sizeof(protocol::EvalEvent) +
             checkpoints_.capacity() * sizeof(protocol::CheckpointEvent) +
             restarts_.capacity() * sizeof(RunRestart) +
             adaptive_r_.capacity() * sizeof(protocol::AdaptiveREvent) +
             captures_.capacity() * sizeof(protocol::CaptureEvent);
  return s;
}

}  // namespace moe::ui

// RunSeries, writer side: events into the series (run_series.h).
#include "base/telemetry/run_series.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "base/telemetry/column_ops.h"

namespace moe::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Inserts or replaces `e` in a list sorted by step (evals, checkpoints).
template <class Event>
void putByStep(std::vector<Event>& list, Event&& e) {
  auto it = std::lower_bound(list.begin(), list.end(), e.step,
                             [](const Event& a, int64_t step) { return a.step < step; });
  if (it != list.end() && it->step == e.step) {
    *it = std::move(e);
  } else {
    list.insert(it, std::move(e));
  }
}

}  // namespace

int64_t configInt(const nlohmann::json& config, const char* section, const char* key,
                  int64_t fallback) {
  auto s = config.find(section);
  if (s == config.end() || !s->is_object()) return fallback;
  auto k = s->find(key);
  return k != s->end() && k->is_number_integer() ? k->get<int64_t>() : fallback;
}

size_t expectedRows(const nlohmann::json& config) {
  const int64_t steps = configInt(config, "train", "steps", 0);
  const int64_t every = std::max<int64_t>(1, configInt(config, "telemetry", "every", 1));
  if (steps <= 0) return 0;
  return static_cast<size_t>(
      std::min<int64_t>(steps / every + 2, static_cast<int64_t>(RunSeries::kMaxReservedRows)));
}

void RunSeries::apply(std::vector<protocol::TelemetryEvent>& events) {
  if (events.empty()) return;
  std::lock_guard lock(mutex_);
  const uint64_t v = version_.load(std::memory_order_relaxed) + 1;
  for (auto& event : events) {
    std::visit([&](auto& e) { take(e, v); }, event);
    ++events_;
  }
  version_.store(v, std::memory_order_release);
}

void RunSeries::apply(protocol::TelemetryEvent event) {
  std::vector<protocol::TelemetryEvent> events;
  events.push_back(std::move(event));
  apply(events);
}

void RunSeries::clear() {
  std::lock_guard lock(mutex_);
  const uint64_t v = version_.load(std::memory_order_relaxed) + 1;
  info_ = RunInfo{};
  steps_ = StepColumns{};
  step_changes_.clear();
  layers_.clear();
  phases_ = PhaseColumns{};
  phase_changes_.clear();
  evals_.clear();
  checkpoints_.clear();
  ranks_.clear();
  restarts_.clear();
  adaptive_r_.clear();
  captures_.clear();
  logs_.clear();
  run_end_.reset();
  run_start_version_ = run_end_version_ = 0;
  latest_step_ = LatestStep{};
  events_ = rejected_ = logs_dropped_ = 0;
  expected_rows_ = 0;
  cleared_version_ = v;
  version_.store(v, std::memory_order_release);
}

void RunSeries::take(protocol::RunStartEvent& e, uint64_t version) {
  run_start_version_ = version;
  const int resumes = info_.started ? info_.resumes + 1 : 0;
  if (info_.started) restarts_.push_back({e.t, e.resumed_step.value_or(0), e.restart});
  info_.restarts = e.restart;
  info_.started = true;
  info_.resumes = resumes;
  info_.t = e.t;
  info_.run_id = std::move(e.run_id);
  info_.config = std::move(e.config);
  info_.world_size = e.world_size;
  info_.device = std::move(e.device);
  info_.host = std::move(e.host);
  info_.engine_version = std::move(e.engine_version);
  info_.torch_version = std::move(e.torch_version);
  info_.expert_parameters = e.expert_parameters;
  info_.dense_parameters = e.dense_parameters;
  run_end_.reset();  // running again
  const size_t rows = expectedRows(info_.config);
  if (rows > expected_rows_) {
    expected_rows_ = rows;
    detail::reserveRows(steps_.columns(), rows);
    for (auto& [index, layer] : layers_) layer.reserve(rows);
    if (ranks_.rows() > 0) ranks_.reserve(rows);
  }
}

void RunSeries::take(protocol::StepEvent& e, uint64_t version) {
  const double step = static_cast<double>(e.step);
  const detail::RowSlot slot = detail::findSlot(steps_.step, step);
  const double values[StepColumns::kColumns] = {
      step,           e.t,         e.loss,
      e.task_loss,    e.aux_loss,  e.z_loss,
      e.lr,           e.grad_norm, static_cast<double>(e.tokens),
      e.tokens_per_s, e.step_ms,   e.tflops.value_or(kNaN)};
  auto columns = steps_.columns();
  for (size_t i = 0; i < columns.size(); ++i) detail::put(*columns[i], slot, values[i]);
  step_changes_.record(version, step);
  latest_step_ = {e.step, e.t, version};
}

void RunSeries::take(protocol::ExpertLoadEvent& e, uint64_t version) {
  auto it = layers_.find(e.layer);
  if (it == layers_.end()) {
    it = layers_.emplace(e.layer, detail::LayerStore(e.layer, e.counts.size())).first;
    if (expected_rows_ > 0) it->second.reserve(expected_rows_);
  }
  if (!it->second.store(e, version)) ++rejected_;
}

void RunSeries::take(protocol::PhasesEvent& e, uint64_t version) {
  // A phase not seen before gets a column, NaN for the rows before it. The engine's phases come
  // in their kPhaseNames order (gate, dispatch, ...), others after them by name.
  std::vector<std::string> added;
  for (const auto& [name, ms] : e.ms) {
    if (std::find(phases_.names.begin(), phases_.names.end(), name) == phases_.names.end()) {
      added.push_back(name);
    }
  }
  auto rank = [](const std::string& name) {
    auto it = std::find(protocol::kPhaseNames.begin(), protocol::kPhaseNames.end(), name);
    return static_cast<size_t>(it - protocol::kPhaseNames.begin());
  };
  std::stable_sort(added.begin(), added.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  for (std::string& name : added) {
    phases_.names.push_back(std::move(name));
    phases_.ms.emplace_back(phases_.size(), kNaN);
    if (expected_rows_ > 0) phases_.ms.back().reserve(expected_rows_);
  }
  const double step = static_cast<double>(e.step);
  const detail::RowSlot slot = detail::findSlot(phases_.step, step);
  if (slot.insert && phases_.step.empty() && expected_rows_ > 0) {
    phases_.step.reserve(expected_rows_);
    phases_.t.reserve(expected_rows_);
  }
  detail::put(phases_.step, slot, step);
  detail::put(phases_.t, slot, e.t);
  for (size_t i = 0; i < phases_.names.size(); ++i) {
    auto found = e.ms.find(phases_.names[i]);
    detail::put(phases_.ms[i], slot, found == e.ms.end() ? kNaN : found->second);
  }
  phase_changes_.record(version, step);
}

void RunSeries::take(protocol::EvalEvent& e, uint64_t) {
  putByStep(evals_, std::move(e));
}

void RunSeries::take(protocol::CheckpointEvent& e, uint64_t) {
  putByStep(checkpoints_, std::move(e));
}

void RunSeries::take(protocol::LogEvent& e, uint64_t version) {
  logs_.emplace_back(version, std::move(e));
  if (logs_.size() > kMaxLogLines) {
    logs_.pop_front();
    ++logs_dropped_;
  }
}

void RunSeries::take(protocol::RanksEvent& e, uint64_t version) {
  if (ranks_.rows() == 0 && expected_rows_ > 0) ranks_.reserve(expected_rows_);
  ranks_.store(e, version);
}

void RunSeries::take(protocol::AdaptiveREvent& e, uint64_t) {
  putByStep(adaptive_r_, std::move(e));
}

// One file per (step, layer); a resumed run that captures a step again replaces it.
void RunSeries::take(protocol::CaptureEvent& e, uint64_t) {
  auto before = [](const protocol::CaptureEvent& a, const protocol::CaptureEvent& b) {
    return std::pair(a.step, a.layer) < std::pair(b.step, b.layer);
  };
  auto it = std::lower_bound(captures_.begin(), captures_.end(), e, before);
  if (it != captures_.end() && it->step == e.step && it->layer == e.layer) {
    *it = std::move(e);
  } else {
    captures_.insert(it, std::move(e));
  }
}

void RunSeries::take(protocol::RunEndEvent& e, uint64_t version) {
  run_end_ = std::move(e);
  run_end_version_ = version;
}

}  // namespace moe::ui

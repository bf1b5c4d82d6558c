// The plain data a RunSeries hands to readers: column-wise series (one std::vector<double> per
// field, the layout QCustomPlot's addData takes), sorted by step, plus the small per-run records.
// No Qt, no locks: these are copies the GUI owns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui {

inline constexpr double kNoStep = -std::numeric_limits<double>::infinity();

// What run_start said (the latest one: a resumed run starts again and repeats it).
struct RunInfo {
  bool started = false;  // a run_start was seen
  double t = 0;
  std::string run_id;
  nlohmann::json config = nlohmann::json::object();  // the full resolved RunConfig
  int64_t world_size = 1;
  std::string device, host, engine_version, torch_version;
  std::optional<int64_t> expert_parameters, dense_parameters;
  int resumes = 0;       // run_start events after the first one
  int64_t restarts = 0;  // the latest run_start's restart: moe-train launch --max-restarts
};

// A later start of the run (a resume, or a restart after a failure): when, and the checkpoint
// step it went on from.
struct RunRestart {
  double t = 0;
  int64_t step = 0;
  int64_t restart = 0;  // 0 for a resume by hand
};

// Every `step` event. Steps and token counts are held as doubles (exact below 2^53) so that every
// column plots directly. tflops is NaN where the engine does not report it (not helloworld).
struct StepColumns {
  static constexpr size_t kColumns = 12;
  // In a delta (RunSeries::changesSince): these rows replace the reader's rows whose step is >=
  // replace_from. In a snapshot: the first step of the requested range.
  double replace_from = kNoStep;
  std::vector<double> step, t, loss, task_loss, aux_loss, z_loss, lr, grad_norm, tokens,
      tokens_per_s, step_ms, tflops;

  size_t size() const { return step.size(); }
  std::array<std::vector<double>*, kColumns> columns() {
    return {&step, &t,         &loss,   &task_loss,    &aux_loss, &z_loss,
            &lr,   &grad_norm, &tokens, &tokens_per_s, &step_ms,  &tflops};
  }
  std::array<const std::vector<double>*, kColumns> columns() const {
    return {&step, &t,         &loss,   &task_loss,    &aux_loss, &z_loss,
            &lr,   &grad_norm, &tokens, &tokens_per_s, &step_ms,  &tflops};
  }
};

// The scalar balance metrics of one MoE layer (docs/ROUTING.md, "Load metrics") per logged step.
// `layer` is the expert_load event's layer index (the n-th MoE layer of the model).
struct LayerColumns {
  int64_t layer = 0;
  size_t experts = 0;
  double replace_from = kNoStep;  // as in StepColumns
  std::vector<double> step, t, capacity, dropped_frac, cv, max_over_mean, load_entropy,
      router_entropy, dead_experts, l_aux, z_loss;

  size_t size() const { return step.size(); }
  std::array<std::vector<double>*, 11> columns() {
    return {&step,         &t,
            &capacity,     &dropped_frac,
            &cv,           &max_over_mean,
            &load_entropy, &router_entropy,
            &dead_experts, &l_aux,
            &z_loss};
  }
  std::array<const std::vector<double>*, 11> columns() const {
    return {&step,         &t,
            &capacity,     &dropped_frac,
            &cv,           &max_over_mean,
            &load_entropy, &router_entropy,
            &dead_experts, &l_aux,
            &z_loss};
  }
};

// Phase times per step. ms[i] belongs to names[i]; NaN where a step did not report that phase.
// Names: the kPhaseNames phases in kPhaseNames order (gate, dispatch, ...), then any others, as
// first seen.
struct PhaseColumns {
  double replace_from = kNoStep;  // as in StepColumns
  std::vector<double> step, t;
  std::vector<std::string> names;
  std::vector<std::vector<double>> ms;

  size_t size() const { return step.size(); }
};

// One rank's figures over the logged steps of a multi-process run (`ranks` events), in the rows of
// the RankColumns that holds it: NaN where a step's event did not list the rank.
struct RankSeries {
  int64_t rank = 0;
  std::string host;  // as the rank's latest entry said
  std::vector<double> step_ms, compute_ms, a2a_ms, allreduce_ms, tokens, peak_bytes;
};

// Every `ranks` event: one row per logged step, one RankSeries per rank (ascending by rank). A
// delta (RunSeries::changesSince) carries every rank, each with the rows from replace_from on.
struct RankColumns {
  double replace_from = kNoStep;  // as in StepColumns
  std::vector<double> step, t;
  std::vector<RankSeries> ranks;

  size_t size() const { return step.size(); }
};

// Ranks x bins of step_ms (the heatmap), binned like LoadMatrix: a cell is the mean over the bin's
// steps the rank reported; NaN where it reported none.
struct RankMatrix {
  std::vector<int64_t> ranks;
  std::vector<std::string> hosts;
  size_t bins = 0;
  std::vector<double> first_step, last_step;  // the steps each bin covers
  std::vector<float> values;                  // values[bin * ranks.size() + i]
  double max_value = 0;                       // the largest cell (colour scale)

  float at(size_t bin, size_t i) const { return values[bin * ranks.size() + i]; }
};

// Rows of a series to copy: steps in [first, last], then only the last `max_rows` of them.
struct StepRange {
  double first = kNoStep;
  double last = std::numeric_limits<double>::infinity();
  size_t max_rows = std::numeric_limits<size_t>::max();

  static StepRange all() { return {}; }
  static StepRange lastRows(size_t n) {
    return {kNoStep, std::numeric_limits<double>::infinity(), n};
  }
  static StepRange between(double first, double last) { return {first, last}; }
};

// Which per-expert values a load matrix holds. (Not importance: only the newest row keeps it.)
// kBias: moe.bias_balancing's selection bias the step routed with; NaN where a step has none.
enum class LoadValue { kCounts, kKept, kBias };

// Experts x bins of one layer: consecutive logged steps are averaged into at most the requested
// number of bins (decimated for drawing; storage keeps every step).
struct LoadMatrix {
  int64_t layer = 0;
  size_t experts = 0, bins = 0;
  std::vector<double> first_step, last_step;  // the steps each bin covers
  std::vector<float> values;                  // values[bin * experts + expert]
  double max_value = 0;     // the largest value (colour scale); for kBias the largest |value|
  double max_capacity = 0;  // the largest capacity in the range

  float at(size_t bin, size_t expert) const { return values[bin * experts + expert]; }
};

struct RunSeriesStats {
  int64_t events = 0;        // events applied
  int64_t rejected = 0;      // expert_load events whose expert count differs from the layer's
  int64_t logs_dropped = 0;  // oldest log lines let go to keep the log bounded
  size_t step_rows = 0;      // rows of the step series
  size_t layer_rows = 0;     // rows of all layers together
  size_t rank_rows = 0;      // logged steps with a ranks event
  size_t bytes = 0;          // memory held by the series (approximate, capacity included)
  bool wide_counts = false;  // some layer needed 32-bit counts (a count above 65535)
};

// A consistent copy, taken under one lock. From RunSeries::snapshot: every series within a step
// range. From RunSeries::changesSince: only what changed after a version; each series' rows then
// replace the reader's rows from its replace_from on, and layers lists only the layers that
// changed. The small records (info, restarts, adaptive_r, captures, evals, checkpoints, run_end)
// are always complete.
struct RunSnapshot {
  uint64_t version = 0;
  bool reset = false;  // the reader must drop everything it holds first (first read, clear())
  RunInfo info;
  StepColumns steps;
  std::vector<LayerColumns> layers;
  PhaseColumns phases;
  RankColumns ranks;
  std::vector<RunRestart> restarts;                    // every run_start after the first
  std::vector<protocol::AdaptiveREvent> adaptive_r;    // by step
  std::vector<protocol::CaptureEvent> captures;        // by step, then layer
  std::vector<protocol::EvalEvent> evals;              // by step
  std::vector<protocol::CheckpointEvent> checkpoints;  // by step
  std::vector<protocol::LogEvent> logs;                // delta: the new ones; snapshot: all kept
  std::optional<protocol::RunEndEvent> run_end;        // cleared again when a run resumes
  RunSeriesStats stats;
};

}  // namespace moe::ui

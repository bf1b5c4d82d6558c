// The planner's model against a run (docs/PLANNER.md, "Checking the model after a run"): what the
// run measured after its warm-up (median step time, median milliseconds per phase, and for a
// multi-process run the slowest rank's compute, all-to-all and all-reduce), the layout it ran on
// as the planner names it, and the planner's prediction for that config and layout. Plain C++
// on copies of the series: cheap enough for the GUI thread a few times a second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/planner/plan_model.h"
#include "base/telemetry/series_columns.h"

namespace moe::ui {

// Steps up to and including this one are warm-up: the first 10 % of train.steps, at least 3.
int64_t warmupSteps(int64_t planned_steps);

// The middle value of `values` (the mean of the two middle ones for an even count), NaNs left
// out; NaN when none is left.
double medianOf(std::vector<double> values);

// The slowest rank after the warm-up: the one with the highest median step_ms, and its medians.
struct MeasuredRank {
  int64_t rank = 0;
  std::string host;
  double step_ms = 0, compute_ms = 0, a2a_ms = 0, allreduce_ms = 0;
};

struct MeasuredRun {
  int64_t warmup = 0;  // steps <= warmup were left out
  size_t steps = 0;    // step events used
  double step_ms = 0;  // their median step_ms; NaN when steps == 0
  // Median ms of each phase over the phases events of the same steps, in kPhaseNames order then
  // any other name; a phase no such step reported is left out.
  std::vector<std::pair<std::string, double>> phase_ms;
  std::optional<MeasuredRank> slowest;  // a multi-process run's ranks events
};

MeasuredRun measureRun(const StepColumns& steps, const PhaseColumns& phases,
                       const RankColumns& ranks, int64_t warmup);

// Each phase's share of their sum (the sum is 1 when any phase took time; all 0 otherwise).
std::vector<std::pair<std::string, double>> phaseShares(
    const std::vector<std::pair<std::string, double>>& phase_ms);

// Where the run ran, as the planner places it: parallel.nodes of the config and run_start's
// world_size (nodes x ranks per node; one node of world_size ranks when they do not divide),
// a2a_overlap_degree, and r: the config's, or with "auto" the latest adaptive_r decision (1 before
// any, as the planner reads "auto").
struct RunLayout {
  plan::Layout layout;
  bool auto_r = false;
  std::optional<int64_t> decided_at;  // the step of the adaptive_r decision used
};
RunLayout runLayout(const protocol::RunConfig& config, int64_t world_size,
                    const std::vector<protocol::AdaptiveREvent>& decisions);

// predicted / measured - 1; NaN when measured is not a positive number.
double predictionError(double predicted, double measured);

}  // namespace moe::ui

// Routing health: spots the three ways a MoE layer's routing goes wrong, from the balance metrics
// the engine logs per step (docs/ROUTING.md, "Load metrics"). Plain C++, no Qt: the dashboard shows
// the warnings, a report can list them, a test can check them.
//
// Rules, per layer, over its logged steps (rows of LayerColumns, sorted by step):
// - A row is "bad" for
//     Collapse     when load_entropy < min_load_entropy (0.5; 1 is perfect balance, 0 means
//                  every token goes to one expert),
//     DeadExperts  when dead_experts > 0 (some expert got no token at all),
//     Imbalanced   when max_over_mean > max_over_mean (2: the busiest expert gets more than twice
//                  its fair share; with top-k and a capacity factor near 1 that expert drops
//                  about half its tokens).
//   NaN is never bad (a metric the engine could not compute says nothing).
// - Only the current state counts: the streak of bad rows must end at the latest logged row.
//   A layer that recovered has no warning, however long it was bad before.
// - The streak must be sustained: at least `sustained_rows` (20) consecutive logged rows. A run
//   that has logged fewer rows than that in total warns when every row from the first bad one to
//   the latest is bad (no recovery in between) and there are at least `min_short_rows` (3) of
//   them; so a short run can warn early, but a single noisy row never does.
// - Imbalanced is the mild warning: it is left out for a layer that has collapsed (a collapsed
//   layer is always imbalanced too; saying so twice adds nothing).
// Warnings come ordered by layer, then Collapse, DeadExperts, Imbalanced.
// Pass whole columns (RunSeries::layer(l)) for an exact since_step; a window of the last W >=
// sustained_rows rows (StepRange::lastRows(W)) gives the same warnings, but their since_step is
// no earlier than the window's first step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

struct CollapseThresholds {
  double min_load_entropy = 0.5;
  double max_over_mean = 2.0;
  size_t sustained_rows = 20;  // consecutive logged steps (rows), not step numbers
  size_t min_short_rows = 3;   // the least a run shorter than sustained_rows needs
};

enum class RoutingProblem { kCollapse, kDeadExperts, kImbalanced };

struct RoutingWarning {
  int64_t layer = 0;
  RoutingProblem kind = RoutingProblem::kCollapse;
  int64_t since_step = 0;   // the first step of the current bad streak
  int64_t latest_step = 0;  // the latest logged step (the streak's end)
  size_t rows = 0;          // logged steps in the streak
  double value = 0;         // the latest value: load entropy, dead experts or max/mean, by kind
  // "Layer 1: routing collapsed — load entropy 0.31 (< 0.5) since step 120"
  std::string message;
};

std::vector<RoutingWarning> detectRoutingProblems(const std::vector<LayerColumns>& layers,
                                                  const CollapseThresholds& t = {});

// "collapse", "dead experts", "imbalanced" (for a label or a log line).
const char* routingProblemName(RoutingProblem kind);

}  // namespace moe::ui

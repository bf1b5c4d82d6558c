// The planner's results as JSON (docs/PLANNER.md, "moe-train plan --json"): one object per layout
// with nodes, nproc_per_node, r, step_ms, tokens_per_s, memory_bytes_per_rank,
// a2a_bytes_per_step, allreduce_bytes_per_step, phases_ms and fits, and the best layout.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plan/decode_estimate.h"
#include "plan/layout_search.h"

namespace moe::plan {

nlohmann::json layout_json(const LayoutPrediction& layout);
// {"profile": name, "layouts": [...], "best": {...} or null}
nlohmann::json plan_json(const std::vector<LayoutPrediction>& layouts,
                         const std::optional<LayoutPrediction>& best,
                         const HardwareProfile& profile);
// One decode prediction (moe-train plan --decode --json) on the profile named `profile`.
nlohmann::json decode_json(const DecodePrediction& p, const std::string& profile);

}  // namespace moe::plan

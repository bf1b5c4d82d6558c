#include "plan/layout_search.h"

#include <algorithm>
#include <stdexcept>

#include "protocol/parallel_layout.h"

namespace moe::plan {

std::vector<LayoutPrediction> layouts_for(const protocol::RunConfig& config, int64_t nodes,
                                          int64_t nproc_per_node, const HardwareProfile& profile) {
  std::vector<LayoutPrediction> out;
  const int64_t world = nodes * nproc_per_node;
  if (world < 1 ||
      !protocol::layout_problems(with_layout(config, {nodes, nproc_per_node, 0, 1}), world)
           .empty()) {
    return out;
  }
  const auto placement =
      protocol::expert_placement(config.moe.experts, world, config.parallel.expert_parallel);
  // Without split experts every r computes the same: one candidate.
  const bool split = config.parallel.expert_parallel && world > 1;
  const auto rs = split ? protocol::valid_adaptive_r(placement) : std::vector<int64_t>{1};
  for (int64_t r : rs) {
    Layout l{nodes, nproc_per_node, r, std::max<int64_t>(config.parallel.a2a_overlap_degree, 1)};
    try {
      out.push_back({l, predict(config, l, profile)});
    } catch (const std::invalid_argument&) {
      // r = 0 with one rank, or a layout the counts refuse: not a candidate.
    }
  }
  return out;
}

std::optional<LayoutPrediction> best_of(const std::vector<LayoutPrediction>& layouts) {
  if (layouts.empty()) return std::nullopt;
  const auto faster = [](const LayoutPrediction& a, const LayoutPrediction& b) {
    if (a.prediction.fits != b.prediction.fits) return a.prediction.fits;
    return a.prediction.step_ms < b.prediction.step_ms;
  };
  return *std::min_element(layouts.begin(), layouts.end(), faster);
}

std::vector<LayoutPrediction> scaling_table(const protocol::RunConfig& config,
                                            const HardwareProfile& profile, int64_t max_ranks,
                                            int64_t nodes) {
  std::vector<LayoutPrediction> out;
  const int64_t per_node = std::max<int64_t>(profile.device.devices_per_node, 1);
  for (int64_t world = 1; world <= max_ranks; world *= 2) {
    int64_t k = nodes > 0 ? nodes : (world + per_node - 1) / per_node;
    if (world % k != 0) continue;
    const auto layouts = layouts_for(config, k, world / k, profile);
    out.insert(out.end(), layouts.begin(), layouts.end());
  }
  return out;
}

}  // namespace moe::plan

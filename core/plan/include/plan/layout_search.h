// The layouts a config can run on and the fastest of them (docs/PLANNER.md, "Layouts"): for a
// number of ranks, every valid r (and the config's overlap degree); across sizes, powers of two
// from 1 to 1024 ranks filling nodes of the profile's devices per node.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/step_time.h"

namespace moe::plan {

struct LayoutPrediction {
  Layout layout;
  StepPrediction prediction;
};

// Every valid r on nodes x nproc_per_node (the config's batch and experts must suit the world:
// an empty list when they do not).
std::vector<LayoutPrediction> layouts_for(const protocol::RunConfig& config, int64_t nodes,
                                          int64_t nproc_per_node, const HardwareProfile& profile);

// The fastest that fits (the fastest overall when none fits); nullopt for an empty list.
std::optional<LayoutPrediction> best_of(const std::vector<LayoutPrediction>& layouts);

// For each world size 1, 2, 4, ... max_ranks: nodes = ceil(W / devices_per_node) (or `nodes`
// when given, > 0), every valid r. Sizes the config cannot run on are left out.
std::vector<LayoutPrediction> scaling_table(const protocol::RunConfig& config,
                                            const HardwareProfile& profile, int64_t max_ranks,
                                            int64_t nodes = 0);

}  // namespace moe::plan

// moe-train plan's printed tables: one row per layout (world, nodes x ranks, r, step time with
// its compute / all-to-all / all-reduce parts, tokens/s, memory per rank, fits), the best layout
// marked; with one layout size, the phase breakdown of each r too.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "plan/decode_estimate.h"
#include "plan/layout_search.h"

namespace moe::train {

void print_plan(std::ostream& out, const protocol::RunConfig& config,
                const plan::HardwareProfile& profile,
                const std::vector<plan::LayoutPrediction>& layouts,
                const plan::LayoutPrediction& best, bool with_phases);

// moe-train plan --decode's table: a row per prediction, `profiles[i]` naming predictions[i]'s.
void print_decode(std::ostream& out, const std::vector<plan::DecodePrediction>& predictions,
                  const std::vector<std::string>& profiles);

// Why no layout of nodes x nproc_per_node suits the config (the layout's problems).
std::string layout_refusal(const protocol::RunConfig& config, int64_t nodes,
                           int64_t nproc_per_node);

}  // namespace moe::train

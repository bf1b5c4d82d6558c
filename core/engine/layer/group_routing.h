#pragma once
// Routing across the ranks of an expert-parallel group, with the single-process semantics of
// docs/ROUTING.md on the concatenated batch (rank 0's tokens first, then rank 1's...): every rank
// gathers the group's expert choices (and top-1 scores for batch-prioritized routing), computes the
// group's slots, demand and capacity, and keeps its own tokens' part. Slots are then compacted per
// rank: rank q's kept choices for expert e take slots 0.. of its buffer in group slot order, and
// every rank's buffer has as many slots as the largest such share, so the all-to-all has equal
// splits. The gathered choices are k int32 per token: small next to the activations.
#include "dist/process_group.h"
#include "layer/routing_plan.h"

namespace moe::layer {

// scores: this rank's [N, E] (every rank has the same N).
RoutingPlan make_group_routing_plan(const at::Tensor& scores, const at::Tensor& selection_bias,
                                    const RoutingOptions& options, dist::ProcessGroup& group);

}  // namespace moe::layer

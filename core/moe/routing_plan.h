#pragma once
// A RoutingPlan is the discrete part of routing (docs/ROUTING.md): which expert and slot every
// choice takes, the demand, the capacity and the slot map. It carries no gradient; gate values do.
#include <torch/torch.h>

#include <functional>
#include <vector>

#include "moe_kernels/dispatch.h"

namespace moe {

struct RoutingPlan {
  int64_t tokens = 0, experts = 0, top_k = 0, capacity = 0;
  at::Tensor idx;               // [k, N] int32, choice-major
  at::Tensor loc;               // [k, N] int32, slot inside the expert; >= capacity means dropped
  at::Tensor counts;            // [k, E] int64, c_j[e]
  at::Tensor slot_map;          // [E, C] int64, j*N+n of the choice in each slot or -1
  std::vector<int64_t> demand;  // [E], all choices before capacity
  std::vector<int64_t> kept;    // [E], min(demand, capacity)

  kernels::RoutingView view() const;
};

struct RoutingOptions {
  int64_t top_k = 1;
  double capacity_factor = 1.0;
  bool batch_prioritized = false;
  int64_t alignment = 1;
  // Max demand over the expert-parallel group; identity on one process.
  std::function<int64_t(int64_t)> reduce_max_demand;
};

// scores: [N, E] float32 or float64 (others are upcast for the choice only, which keeps the order).
// selection_bias: undefined, or [E] float32 added to the scores for the choice only
// (docs/ROUTING.md:).
RoutingPlan make_routing_plan(const at::Tensor& scores, const at::Tensor& selection_bias,
                              const RoutingOptions& options);

}  // namespace moe

#pragma once
// A RoutingPlan is the discrete part of routing (docs/ROUTING.md): which expert and slot every
// choice takes, the demand, the capacity and the slot map. It carries no gradient; gate values do.
// Its tensors live on the scores' device and are computed there by the kernel backend; the only
// figure read back to the host is the largest demand, and only when capacity depends on it
// (capacity_factor <= 0).
#include <torch/torch.h>

#include <vector>

#include "moe_kernels/backend.h"

namespace moe::layer {

// Across ranks (make_group_routing_plan) the plan covers this rank's tokens, and its slots are
// this rank's share of every expert's slots, compacted: `capacity` is then the buffer's slots per
// expert, while group_capacity is the C the routing semantics use for the concatenated batch.
struct RoutingPlan {
  int64_t tokens = 0, experts = 0, top_k = 0, capacity = 0;
  at::Tensor idx;       // [k, N] int32, choice-major
  at::Tensor loc;       // [k, N] int32, slot inside the expert; >= capacity means dropped
  at::Tensor slot_map;  // [E, C] int64, j*N+n of the choice in each slot or -1
  // Over the whole group (equal to this rank's figures on one process):
  int64_t group_tokens = 0, group_capacity = 0;
  at::Tensor first_counts;  // [E] int64, c_0[e]: first choices (the gshard loss's f)
  at::Tensor demand;        // [E] int64, all choices before capacity
  at::Tensor kept;          // [E] int64, min(demand, group_capacity)
  // Group plans only: [W * E], rank q's kept choices of expert e at q * E + e; each rank's fill
  // the first slots of its buffer (what the ragged all-to-all sends, ragged_exchange.h).
  std::vector<int64_t> rank_shares;

  kernels::RoutingView view() const;
};

struct RoutingOptions {
  int64_t top_k = 1;
  double capacity_factor = 1.0;
  bool batch_prioritized = false;
  int64_t alignment = 1;
  // Across ranks: this rank's slots per expert are rounded up to a multiple of it (the groups
  // that share an expert's slots, docs/ROUTING.md, "Adaptive parallelism").
  int64_t buffer_alignment = 1;
};

// scores: [N, E] float32 or float64 (others are upcast for the choice only, which keeps the order).
// selection_bias: undefined, or [E] float32 added to the scores for the choice only
// (docs/ROUTING.md:).
RoutingPlan make_routing_plan(const at::Tensor& scores, const at::Tensor& selection_bias,
                              const RoutingOptions& options);

// Slots, counts, capacity and slot map of choices idx [k, N] (int32, on the backend's device),
// claimed in `order` (undefined: token order): what both plans share after the choice.
struct SlotCounts {
  at::Tensor loc, slot_map, first_counts, demand, kept;
  int64_t capacity = 0;
};
SlotCounts count_slots(const at::Tensor& idx, const at::Tensor& order, int64_t experts,
                       double capacity_factor, int64_t alignment);

// The building blocks both plans share. scores: [N, E] float32 or float64, contiguous.
at::Tensor choose_experts(const at::Tensor& scores, const at::Tensor& selection_bias, int64_t k);
// Token order by descending top-1 score (ties: lower index first), from the top-1 scores [N].
at::Tensor priority_order(const at::Tensor& top1_scores);
// scores as routing reads them: detached, float32 or float64, contiguous.
at::Tensor routing_scores(const at::Tensor& scores);

}  // namespace moe::layer

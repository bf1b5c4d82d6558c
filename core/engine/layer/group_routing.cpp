#include "layer/group_routing.h"

#include <algorithm>

namespace moe::layer {

namespace {

// [W, k, N] gathered choices -> [k, W*N] in the concatenated batch's token order.
at::Tensor concatenated_choices(const at::Tensor& gathered) {
  const int64_t W = gathered.size(0), k = gathered.size(1), N = gathered.size(2);
  return gathered.permute({1, 0, 2}).reshape({k, W * N}).contiguous();
}

// The group plan's slot map, walked in slot order: each rank's kept choices per expert, numbered
// from 0. Fills this rank's compacted loc and slot map, with as many slots per expert as the
// largest share of any rank (at least one, so that no buffer is empty). Runs on the host: a
// device run copies the group's slot map here once per layer (a kernel could do it there).
void compact_slots(const at::Tensor& group_slots_on_device, int64_t rank, int64_t world,
                   int64_t alignment, RoutingPlan& p) {
  const int64_t E = p.experts, C = p.group_capacity, N = p.tokens, NG = N * world;
  const at::Tensor group_slots = group_slots_on_device.cpu();
  const int64_t* slots = group_slots.data_ptr<int64_t>();
  std::vector<int64_t> share(world * E, 0);
  std::vector<int64_t> mine_j, mine_n, mine_e;  // this rank's kept choices, in slot order per e
  for (int64_t e = 0; e < E; ++e) {
    for (int64_t s = 0; s < C; ++s) {
      const int64_t v = slots[e * C + s];
      if (v < 0) continue;
      const int64_t j = v / NG, n = v % NG, q = n / N;
      ++share[q * E + e];
      if (q != rank) continue;
      mine_j.push_back(j);
      mine_n.push_back(n - rank * N);
      mine_e.push_back(e);
    }
  }
  int64_t slots_per_expert =
      std::max<int64_t>(1, world * E > 0 ? *std::max_element(share.begin(), share.end()) : 0);
  slots_per_expert = (slots_per_expert + alignment - 1) / alignment * alignment;
  p.capacity = slots_per_expert;
  p.rank_shares = std::move(share);
  p.loc = at::full({p.top_k, N}, static_cast<int32_t>(slots_per_expert), at::kInt);
  p.slot_map = at::full({E, slots_per_expert}, int64_t{-1}, at::kLong);
  auto loc = p.loc.accessor<int32_t, 2>();
  auto map = p.slot_map.accessor<int64_t, 2>();
  std::vector<int64_t> next(E, 0);
  for (size_t i = 0; i < mine_e.size(); ++i) {
    const int64_t e = mine_e[i], s = next[e]++;
    loc[mine_j[i]][mine_n[i]] = static_cast<int32_t>(s);
    map[e][s] = mine_j[i] * N + mine_n[i];
  }
  p.loc = p.loc.to(group_slots_on_device.device());
  p.slot_map = p.slot_map.to(group_slots_on_device.device());
}

}  // namespace

RoutingPlan make_group_routing_plan(const at::Tensor& scores_in, const at::Tensor& selection_bias,
                                    const RoutingOptions& options, dist::ProcessGroup& group) {
  const at::Tensor scores = routing_scores(scores_in);
  const int64_t W = group.world_size(), rank = group.rank();
  RoutingPlan plan;
  plan.tokens = scores.size(0);
  plan.experts = scores.size(1);
  plan.top_k = std::min<int64_t>(options.top_k, plan.experts);
  const int64_t N = plan.tokens, E = plan.experts, k = plan.top_k, NG = N * W;

  plan.idx = choose_experts(scores, selection_bias, k);
  const at::Tensor all_idx = concatenated_choices(group.all_gather(plan.idx));
  at::Tensor order;
  if (options.batch_prioritized) {
    auto top1 = scores.gather(1, plan.idx[0].to(at::kLong).unsqueeze(1)).squeeze(1);
    order = priority_order(group.all_gather(top1).reshape({NG}));
  }
  SlotCounts counted = count_slots(all_idx, order, E, options.capacity_factor, options.alignment);
  plan.first_counts = std::move(counted.first_counts);
  plan.group_tokens = NG;
  plan.demand = std::move(counted.demand);
  plan.kept = std::move(counted.kept);
  plan.group_capacity = counted.capacity;
  compact_slots(counted.slot_map, rank, W, std::max<int64_t>(1, options.buffer_alignment), plan);
  return plan;
}

}  // namespace moe::layer

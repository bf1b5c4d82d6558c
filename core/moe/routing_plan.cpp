#include "moe/routing_plan.h"

#include <algorithm>

#include "moe_kernels/routing.h"

namespace moe {

namespace kn = moe::kernels;

kernels::RoutingView RoutingPlan::view() const {
  return kn::RoutingView{idx.data_ptr<int32_t>(),
                         loc.data_ptr<int32_t>(),
                         slot_map.data_ptr<int64_t>(),
                         tokens,
                         experts,
                         top_k,
                         capacity};
}

at::Tensor choose_experts(const at::Tensor& scores, const at::Tensor& selection_bias, int64_t k) {
  const int64_t N = scores.size(0), E = scores.size(1);
  auto idx = at::empty({k, N}, at::kInt);
  at::Tensor bias;
  if (selection_bias.defined()) bias = selection_bias.detach().to(at::kFloat).contiguous();
  const float* bias_ptr = bias.defined() ? bias.data_ptr<float>() : nullptr;
  if (scores.scalar_type() == at::kDouble) {
    kn::topk_choices(scores.data_ptr<double>(), N, E, k, bias_ptr, idx.data_ptr<int32_t>());
  } else {
    kn::topk_choices(scores.data_ptr<float>(), N, E, k, bias_ptr, idx.data_ptr<int32_t>());
  }
  return idx;
}

// Batch-prioritized routing orders tokens by their top-1 score (docs/ROUTING.md, "Batch-prioritized
// routing").
at::Tensor priority_order(const at::Tensor& top1_scores) {
  auto top1 = top1_scores.contiguous();
  const int64_t N = top1.size(0);
  auto order = at::empty({N}, at::kLong);
  if (top1.scalar_type() == at::kDouble) {
    kn::priority_order(top1.data_ptr<double>(), N, order.data_ptr<int64_t>());
  } else {
    kn::priority_order(top1.data_ptr<float>(), N, order.data_ptr<int64_t>());
  }
  return order;
}

at::Tensor routing_scores(const at::Tensor& scores_in) {
  TORCH_CHECK(scores_in.dim() == 2, "routing scores must be [tokens, experts]");
  auto scores = scores_in.detach();
  if (scores.scalar_type() != at::kDouble) scores = scores.to(at::kFloat);
  return scores.contiguous();
}

RoutingPlan make_routing_plan(const at::Tensor& scores_in, const at::Tensor& selection_bias,
                              const RoutingOptions& options) {
  const at::Tensor scores = routing_scores(scores_in);

  RoutingPlan plan;
  plan.tokens = scores.size(0);
  plan.experts = scores.size(1);
  plan.top_k = std::min<int64_t>(options.top_k, plan.experts);
  const int64_t N = plan.tokens, E = plan.experts, k = plan.top_k;

  plan.idx = choose_experts(scores, selection_bias, k);
  at::Tensor order;
  if (options.batch_prioritized) {
    order = priority_order(scores.gather(1, plan.idx[0].to(at::kLong).unsqueeze(1)).squeeze(1));
  }
  plan.loc = at::empty({k, N}, at::kInt);
  auto counts = at::empty({k, E}, at::kLong);
  kn::slot_locations(plan.idx.data_ptr<int32_t>(), N, E, k,
                     order.defined() ? order.data_ptr<int64_t>() : nullptr,
                     plan.loc.data_ptr<int32_t>(), counts.data_ptr<int64_t>());
  plan.first_counts = counts[0].clone();

  plan.demand.assign(E, 0);
  kn::demand_from_counts(counts.data_ptr<int64_t>(), E, k, plan.demand.data());
  const int64_t max_demand = E > 0 ? *std::max_element(plan.demand.begin(), plan.demand.end()) : 0;
  plan.capacity = kn::capacity(options.capacity_factor, N, E, k, max_demand, options.alignment);
  plan.group_tokens = N;
  plan.group_capacity = plan.capacity;
  plan.kept.assign(E, 0);
  kn::kept_counts(plan.demand.data(), E, plan.capacity, plan.kept.data());

  plan.slot_map = at::empty({E, plan.capacity}, at::kLong);
  kn::build_slot_map(plan.idx.data_ptr<int32_t>(), plan.loc.data_ptr<int32_t>(), N, E, k,
                     plan.capacity, plan.slot_map.data_ptr<int64_t>());
  return plan;
}

}  // namespace moe

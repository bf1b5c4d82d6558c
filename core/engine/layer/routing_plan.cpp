#include "layer/routing_plan.h"

#include <algorithm>

#include "layer/kernel_backend.h"
#include "moe_kernels/capacity.h"

namespace moe::layer {

namespace kn = moe::kernels;

kernels::RoutingView RoutingPlan::view() const {
  return kn::RoutingView{device_ptr<const int32_t>(idx),
                         device_ptr<const int32_t>(loc),
                         device_ptr<const int64_t>(slot_map),
                         tokens,
                         experts,
                         top_k,
                         capacity};
}

at::Tensor choose_experts(const at::Tensor& scores, const at::Tensor& selection_bias, int64_t k) {
  const int64_t N = scores.size(0), E = scores.size(1);
  auto idx = at::empty({k, N}, scores.options().dtype(at::kInt));
  at::Tensor bias;
  if (selection_bias.defined()) {
    bias = selection_bias.detach().to(scores.device(), at::kFloat).contiguous();
  }
  const c10::DeviceGuard on_device(scores.device());
  kernel_backend(scores).topk_choices(kernel_dtype(scores.scalar_type()), scores.data_ptr(), N, E,
                                      k, device_ptr<const float>(bias), device_ptr<int32_t>(idx),
                                      kernel_stream(scores));
  return idx;
}

// Batch-prioritized routing orders tokens by their top-1 score (docs/ROUTING.md, "Batch-prioritized
// routing").
at::Tensor priority_order(const at::Tensor& top1_scores) {
  auto top1 = top1_scores.contiguous();
  auto order = at::empty({top1.size(0)}, top1.options().dtype(at::kLong));
  const c10::DeviceGuard on_device(top1.device());
  kernel_backend(top1).priority_order(kernel_dtype(top1.scalar_type()), top1.data_ptr(),
                                      top1.size(0), device_ptr<int64_t>(order),
                                      kernel_stream(top1));
  return order;
}

at::Tensor routing_scores(const at::Tensor& scores_in) {
  TORCH_CHECK(scores_in.dim() == 2, "routing scores must be [tokens, experts]");
  auto scores = scores_in.detach();
  if (scores.scalar_type() != at::kDouble) scores = scores.to(at::kFloat);
  return scores.contiguous();
}

SlotCounts count_slots(const at::Tensor& idx, const at::Tensor& order, int64_t experts,
                       double capacity_factor, int64_t alignment) {
  const int64_t k = idx.size(0), N = idx.size(1), E = experts;
  kn::Backend& backend = kernel_backend(idx);
  const c10::DeviceGuard on_device(idx.device());
  const kn::Stream stream = kernel_stream(idx);
  const auto longs = idx.options().dtype(at::kLong);
  SlotCounts s;
  s.loc = at::empty({k, N}, idx.options());
  auto counts = at::empty({k, E}, longs);
  backend.slot_locations(device_ptr<const int32_t>(idx), N, E, k, device_ptr<const int64_t>(order),
                         device_ptr<int32_t>(s.loc), device_ptr<int64_t>(counts), stream);
  s.first_counts = counts[0].clone();
  s.demand = at::empty({E}, longs);
  // Fixed capacity does not depend on the demand: nothing is read back then. Dropless and
  // bounded capacity need the largest demand on the host: one 8-byte copy.
  const bool needs_max = !(capacity_factor > 0);
  const auto max_demand = needs_max ? at::empty({1}, longs) : at::Tensor();
  backend.demand_from_counts(device_ptr<const int64_t>(counts), E, k, device_ptr<int64_t>(s.demand),
                             device_ptr<int64_t>(max_demand), stream);
  int64_t largest = 0;
  if (needs_max) backend.copy_to_host(&largest, max_demand.data_ptr(), sizeof largest, stream);
  s.capacity = kn::capacity(capacity_factor, N, E, k, largest, alignment);
  s.kept = at::empty({E}, longs);
  backend.kept_counts(device_ptr<const int64_t>(s.demand), E, s.capacity,
                      device_ptr<int64_t>(s.kept), stream);
  s.slot_map = at::empty({E, s.capacity}, longs);
  backend.build_slot_map(device_ptr<const int32_t>(idx), device_ptr<const int32_t>(s.loc), N, E, k,
                         s.capacity, device_ptr<int64_t>(s.slot_map), stream);
  return s;
}

RoutingPlan make_routing_plan(const at::Tensor& scores_in, const at::Tensor& selection_bias,
                              const RoutingOptions& options) {
  const at::Tensor scores = routing_scores(scores_in);

  RoutingPlan plan;
  plan.tokens = scores.size(0);
  plan.experts = scores.size(1);
  plan.top_k = std::min<int64_t>(options.top_k, plan.experts);

  plan.idx = choose_experts(scores, selection_bias, plan.top_k);
  at::Tensor order;
  if (options.batch_prioritized) {
    order = priority_order(scores.gather(1, plan.idx[0].to(at::kLong).unsqueeze(1)).squeeze(1));
  }
  SlotCounts s =
      count_slots(plan.idx, order, plan.experts, options.capacity_factor, options.alignment);
  plan.loc = std::move(s.loc);
  plan.slot_map = std::move(s.slot_map);
  plan.first_counts = std::move(s.first_counts);
  plan.demand = std::move(s.demand);
  plan.kept = std::move(s.kept);
  plan.capacity = s.capacity;
  plan.group_tokens = plan.tokens;
  plan.group_capacity = plan.capacity;
  return plan;
}

}  // namespace moe::layer

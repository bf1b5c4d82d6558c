#include "moe/expert_parallel.h"

#include "moe/expert_ffn.h"
#include "telemetry/phase_timer.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Inside "backward": the trainer moves it from there to "a2a".
constexpr const char* kBackwardA2aPhase = "a2a_backward";

// autograd keeps non-tensor state as IValues: the group travels as its address.
int64_t address(dist::ProcessGroup* group) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(group));
}
dist::ProcessGroup& group_at(AutogradContext* ctx) {
  return *reinterpret_cast<dist::ProcessGroup*>(
      static_cast<intptr_t>(ctx->saved_data["group"].toInt()));
}

struct AllToAllFunction : torch::autograd::Function<AllToAllFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group) {
    ScopedPhase phase("a2a");
    ctx->saved_data["group"] = address(group);
    return group->all_to_all(x.contiguous());
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase(kBackwardA2aPhase);
    return {group_at(ctx).all_to_all(grads[0].contiguous()), at::Tensor()};
  }
};

struct AllReduceSumFunction : torch::autograd::Function<AllReduceSumFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group) {
    ctx->saved_data["group"] = address(group);
    auto sum = x.clone();
    group->all_reduce_sum(sum);
    return sum;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto grad = grads[0].contiguous().clone();
    group_at(ctx).all_reduce_sum(grad);
    return {grad, at::Tensor()};
  }
};

// r = 0: this rank's experts' weights [El, ...] -> every expert's [E, ...]. Backward sums every
// rank's gradient for the full stack and keeps this rank's experts.
struct GatherExpertsFunction : torch::autograd::Function<GatherExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& local,
                            dist::ProcessGroup* group, int64_t first) {
    ScopedPhase phase("a2a");
    ctx->saved_data["group"] = address(group);
    ctx->saved_data["first"] = first;
    ctx->saved_data["count"] = local.size(0);
    auto gathered = group->all_gather(local);  // [W, El, ...]
    auto shape = local.sizes().vec();
    shape[0] *= group->world_size();
    return gathered.reshape(shape);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase(kBackwardA2aPhase);
    auto grad = grads[0].contiguous().clone();
    group_at(ctx).all_reduce_sum(grad);
    const int64_t first = ctx->saved_data["first"].toInt(),
                  count = ctx->saved_data["count"].toInt();
    return {grad.narrow(0, first, count).clone(), at::Tensor(), at::Tensor()};
  }
};

at::Tensor gathered(const at::Tensor& local, const ExpertPlacementOnGroup& p) {
  if (!local.defined()) return local;
  return GatherExpertsFunction::apply(local, p.group, p.first_expert);
}

}  // namespace

at::Tensor all_to_all(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllToAllFunction::apply(x, &group);
}

at::Tensor all_reduce_sum(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllReduceSumFunction::apply(x, &group);
}

at::Tensor run_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                       const ExpertPlacementOnGroup& p) {
  if (!p.sharded || p.group == nullptr || p.group->is_single()) {
    ScopedPhase phase("experts");
    return experts.forward(dispatched);
  }
  const int64_t W = p.group->world_size(), El = p.local_experts;
  const int64_t E = dispatched.size(0), C = dispatched.size(1), M = dispatched.size(2);
  if (p.r == 0) {
    const auto w = experts.weights();
    const ExpertWeights full{gathered(w[0], p), gathered(w[1], p), gathered(w[2], p),
                             gathered(w[3], p)};
    ScopedPhase phase("experts");
    return expert_ffn(dispatched, full, experts.activation());
  }
  // [E, C, M] = [W, El, C, M]: chunk q holds rank q's experts' slots.
  auto received = all_to_all(dispatched.reshape({W, El, C, M}), *p.group);
  at::Tensor out;
  {
    ScopedPhase phase("experts");
    auto mine = received.permute({1, 0, 2, 3}).reshape({El, W * C, M});
    out = experts.forward(mine).reshape({El, W, C, M}).permute({1, 0, 2, 3}).contiguous();
  }
  return all_to_all(out, *p.group).reshape({E, C, M});
}

}  // namespace moe

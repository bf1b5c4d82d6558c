#include "layer/expert_parallel.h"

#include "layer/saved_group.h"
#include "trace/phase_timer.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Inside "backward": the trainer moves it from there to "a2a".
constexpr const char* kBackwardA2aPhase = "a2a_backward";

struct AllToAllFunction : torch::autograd::Function<AllToAllFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group) {
    trace::ScopedPhase phase("a2a");
    save_group(ctx, group);
    return group->all_to_all(x.contiguous());
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    trace::ScopedPhase phase(kBackwardA2aPhase);
    return {saved_group(ctx).all_to_all(grads[0].contiguous()), at::Tensor()};
  }
};

struct AllReduceSumFunction : torch::autograd::Function<AllReduceSumFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group) {
    save_group(ctx, group);
    auto sum = x.clone();
    group->all_reduce_sum(sum);
    return sum;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto grad = grads[0].contiguous().clone();
    saved_group(ctx).all_reduce_sum(grad);
    return {grad, at::Tensor()};
  }
};

// This rank's part of an expert tensor -> the full tensor [E, ...] of every rank's parts.
// Backward sums every rank's gradient of the full tensor and keeps this rank's part.
struct GatherExpertsFunction : torch::autograd::Function<GatherExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& part, dist::ProcessGroup* group,
                            const ExpertPartition& partition, bool whole_in_shards) {
    trace::ScopedPhase phase("a2a");
    save_group(ctx, group);
    ctx->saved_data["whole"] = whole_in_shards;
    ctx->saved_data["partition"] =
        std::vector<int64_t>{partition.world,  partition.rank,          partition.experts,
                             partition.hidden, partition.local_experts, partition.shards};
    return partition.whole_from(group->all_gather(part), whole_in_shards);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    trace::ScopedPhase phase(kBackwardA2aPhase);
    const auto v = ctx->saved_data["partition"].toIntVector();
    const ExpertPartition p{v[0], v[1], v[2], v[3], v[4], v[5]};
    auto parts = p.parts_of(grads[0], ctx->saved_data["whole"].toBool()).contiguous().clone();
    saved_group(ctx).all_reduce_sum(parts);
    return {parts[p.rank].clone(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor all_to_all(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllToAllFunction::apply(x, &group);
}

at::Tensor all_reduce_sum(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllReduceSumFunction::apply(x, &group);
}

at::Tensor gather_experts(const at::Tensor& part, const ExpertPlacementOnGroup& p, bool whole) {
  return part.defined() ? GatherExpertsFunction::apply(part, p.group, p.partition, whole) : part;
}

std::vector<at::Tensor> gathered_weights(ExpertsImpl& experts, const ExpertPlacementOnGroup& p) {
  std::vector<at::Tensor> w = experts.weights();
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = gather_experts(w[i], p, experts.roles()[i] == WeightRole::output_bias);
  return w;
}

}  // namespace moe::layer

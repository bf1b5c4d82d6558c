#include "moe/expert_parallel.h"

#include <algorithm>

#include "moe/expert_ffn.h"
#include "moe/overlapped_experts.h"
#include "moe/ragged_exchange.h"
#include "moe/saved_group.h"
#include "telemetry/phase_timer.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Inside "backward": the trainer moves it from there to "a2a".
constexpr const char* kBackwardA2aPhase = "a2a_backward";

struct AllToAllFunction : torch::autograd::Function<AllToAllFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group) {
    ScopedPhase phase("a2a");
    save_group(ctx, group);
    return group->all_to_all(x.contiguous());
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase(kBackwardA2aPhase);
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
    ScopedPhase phase("a2a");
    save_group(ctx, group);
    ctx->saved_data["whole"] = whole_in_shards;
    ctx->saved_data["partition"] =
        std::vector<int64_t>{partition.world,  partition.rank,          partition.experts,
                             partition.hidden, partition.local_experts, partition.shards};
    return partition.whole_from(group->all_gather(part), whole_in_shards);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase(kBackwardA2aPhase);
    const auto v = ctx->saved_data["partition"].toIntVector();
    const ExpertPartition p{v[0], v[1], v[2], v[3], v[4], v[5]};
    auto parts = p.parts_of(grads[0], ctx->saved_data["whole"].toBool()).contiguous().clone();
    saved_group(ctx).all_reduce_sum(parts);
    return {parts[p.rank].clone(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// Every expert's weights, whole (r = 0, or r < s where a rank computes more than its shard).
ExpertWeights gathered_weights(ExpertsImpl& experts, const ExpertPlacementOnGroup& p) {
  const auto w = experts.weights();
  const auto gather = [&](const at::Tensor& part, bool whole) {
    return part.defined() ? GatherExpertsFunction::apply(part, p.group, p.partition, whole) : part;
  };
  return {gather(w[0], false), gather(w[1], false), gather(w[2], false), gather(w[3], true)};
}

// r >= 1 with experts sharded (E < W): see ExpertPlacementOnGroup.
at::Tensor run_sharded_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                               const ExpertPlacementOnGroup& p) {
  const ExpertPartition& part = p.partition;
  const int64_t W = part.world, E = part.experts, s = part.shards, r = p.r, g = s / r;
  const int64_t C = dispatched.size(1), M = dispatched.size(2), chunk = C / g;
  TORCH_CHECK(C % g == 0, "slots per expert (", C, ") must split into ", g, " groups");
  // Rank q = (expert q / s, group (q % s) / r) receives that group's share of the expert's slots.
  std::vector<int64_t> rows(W);
  for (int64_t q = 0; q < W; ++q) rows[q] = (q / s) * g + (q % s) / r;
  // The index lives where the data does: index_select wants both on one device.
  const auto index = at::tensor(rows, at::kLong).to(dispatched.device());
  auto send = dispatched.reshape({E * g, chunk, M}).index_select(0, index);
  auto received = all_to_all(send, *p.group);  // [W sources, chunk, M]

  // This rank's hidden slice of width H / r: its own shard when r = s, else cut from the whole.
  const int64_t e = part.rank / s, slice = part.shard() % r, width = part.hidden / r;
  ExpertWeights w;
  if (r == s) {
    const auto own = experts.weights();
    w = {own[0], own[1], own[2], at::Tensor()};
  } else {
    const auto whole = gathered_weights(experts, p);
    w.fc1_w = whole.fc1_w.narrow(0, e, 1).narrow(1, slice * width, width);
    if (whole.fc1_b.defined())
      w.fc1_b = whole.fc1_b.narrow(0, e, 1).narrow(1, slice * width, width);
    w.fc2_w = whole.fc2_w.narrow(0, e, 1).narrow(1, slice * width, width);
  }
  at::Tensor partial;
  {
    ScopedPhase phase("experts");
    partial = expert_ffn(received.reshape({1, W * chunk, M}), w, experts.activation());
  }
  // Back where the tokens came from: the r partial outputs of each group summed, plus fc2's bias.
  auto back = all_to_all(partial.reshape({W, chunk, M}), *p.group);
  auto out = back.reshape({E, g, r, chunk, M}).sum(2).reshape({E, C, M});
  const auto bias = experts.weights()[3];
  if (bias.defined()) {
    out = out + GatherExpertsFunction::apply(bias, p.group, p.partition, true).unsqueeze(1);
  }
  return out;
}

// Experts computed on this rank's own buffer (replicated experts, r = 0): only its first slots,
// as many as its largest share, hold tokens (the rest pad for other ranks' shares), so `fn` runs
// on those and the output is padded back with zeros, which the combine never reads.
template <class Fn>
at::Tensor on_own_slots(const at::Tensor& dispatched, const std::vector<int64_t>& rank_shares,
                        int64_t rank, Fn&& fn) {
  const int64_t E = dispatched.size(0), C = dispatched.size(1);
  if (static_cast<int64_t>(rank_shares.size()) < (rank + 1) * E) return fn(dispatched);
  const auto mine = rank_shares.begin() + rank * E;
  const int64_t used = std::max<int64_t>(1, *std::max_element(mine, mine + E));
  if (used >= C) return fn(dispatched);
  return at::constant_pad_nd(fn(dispatched.narrow(1, 0, used)), {0, 0, 0, C - used});
}

}  // namespace

at::Tensor all_to_all(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllToAllFunction::apply(x, &group);
}

at::Tensor all_reduce_sum(const at::Tensor& x, dist::ProcessGroup& group) {
  return AllReduceSumFunction::apply(x, &group);
}

at::Tensor run_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                       const ExpertPlacementOnGroup& p, const std::vector<int64_t>& rank_shares) {
  const int64_t rank = p.group ? p.group->rank() : 0;
  if (!p.sharded || p.group == nullptr || p.group->is_single()) {
    ScopedPhase phase("experts");
    return on_own_slots(dispatched, rank_shares, rank,
                        [&](const at::Tensor& x) { return experts.forward(x); });
  }
  const int64_t W = p.group->world_size();
  const int64_t E = dispatched.size(0), C = dispatched.size(1);
  if (p.r == 0) {
    const auto whole = gathered_weights(experts, p);
    ScopedPhase phase("experts");
    return on_own_slots(dispatched, rank_shares, rank, [&](const at::Tensor& x) {
      return expert_ffn(x, whole, experts.activation());
    });
  }
  if (p.partition.shards > 1) return run_sharded_experts(dispatched, experts, p);
  TORCH_CHECK(static_cast<int64_t>(rank_shares.size()) == W * E,
              "run_experts: the group plan's shares are needed for the all-to-all");
  if (p.overlap_degree > 1)
    return overlapped_experts(dispatched, experts, *p.group, p.overlap_degree, rank_shares);
  const auto route = ragged_route(rank_shares, W, rank, C, 0, 1, dispatched.device());
  auto mine = ragged_to_experts(dispatched, route, *p.group);  // [El, R, M]
  at::Tensor out;
  {
    ScopedPhase phase("experts");
    out = experts.forward(mine);
  }
  return ragged_from_experts(out, route, *p.group, E, C);
}

}  // namespace moe

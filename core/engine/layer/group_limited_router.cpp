// GroupLimitedRouter (group_limited_router.h).
#include "layer/group_limited_router.h"

#include <limits>

#include "layer/group_routing.h"
#include "trace/phase_timer.h"

namespace moe::layer {

namespace {

// The reference's floor under the sum of the chosen scores (norm_topk_prob).
constexpr double kNormFloor = 1e-20;

}  // namespace

at::Tensor GroupLimitedRouter::keep_best_groups(const at::Tensor& choice) const {
  const int64_t N = choice.size(0), groups = config_.expert_groups;
  const int64_t per_group = config_.experts / groups;
  const auto grouped = choice.view({N, groups, per_group});
  const auto group_scores = config_.group_score == protocol::GroupScore::Max
                                ? std::get<0>(grouped.max(-1))
                                : std::get<0>(grouped.topk(2, -1)).sum(-1);
  const auto best = std::get<1>(group_scores.topk(config_.topk_groups, -1));
  const auto kept =
      at::zeros({N, groups}, choice.options().dtype(at::kBool)).scatter_(1, best, true);
  return choice.masked_fill(~kept.unsqueeze(-1).expand({N, groups, per_group}).reshape({N, -1}),
                            -std::numeric_limits<double>::infinity());
}

Routing GroupLimitedRouter::route(const at::Tensor& tokens, at::ScalarType dtype,
                                  const RouteContext& where) {
  trace::ScopedPhase phase("gate");
  Routing r;
  gate_logits(tokens, where, r);
  const bool sigmoid = config_.score_function == protocol::ScoreFunction::Sigmoid;
  const auto s = sigmoid ? at::sigmoid(r.noisy) : at::softmax(r.noisy, 1);
  r.scores = sigmoid ? s / s.sum(1, /*keepdim=*/true) : s;
  auto choice = routing_scores(s);
  const at::Tensor bias = bias_for_choice(choice.device());
  if (bias.defined()) choice = choice + bias.to(choice.scalar_type());
  if (config_.expert_groups > 1) choice = keep_best_groups(choice).contiguous();
  const RoutingOptions options{config_.top_k, config_.capacity_factor,
                               config_.batch_prioritized_routing, where.alignment,
                               where.buffer_alignment};
  r.plan = where.over_group() ? make_group_routing_plan(choice, {}, options, *where.group)
                              : make_routing_plan(choice, {}, options);
  auto g = s.gather(1, r.plan.idx.t().to(at::kLong));  // [N, k]
  if (config_.normalize_gate) g = g / (g.sum(1, /*keepdim=*/true) + kNormFloor);
  r.gates = (g * config_.routed_scaling).t().to(dtype);
  return r;
}

}  // namespace moe::layer

// SoftmaxTopKRouter (softmax_top_k_router.h).
#include "layer/softmax_top_k_router.h"

#include <limits>
#include <stdexcept>

#include "layer/aux_losses.h"
#include "layer/expert_parallel.h"
#include "layer/group_routing.h"
#include "trace/phase_timer.h"

namespace moe::layer {

namespace {

// Machine epsilon of a floating dtype: the floor of the normalising denominator (docs/ROUTING.md,
// "Gate values and normalize_gate").
double dtype_eps(at::ScalarType t) {
  switch (t) {
    case at::kDouble:
      return std::numeric_limits<double>::epsilon();
    case at::kBFloat16:
      return 0.0078125;
    case at::kHalf:
      return 0.0009765625;
    default:
      return std::numeric_limits<float>::epsilon();
  }
}

std::shared_ptr<GateImpl> make_gate(int64_t dim, const protocol::MoeConfig& c) {
  switch (c.gate) {
    case protocol::Gate::Top:
      return std::make_shared<TopGateImpl>(dim, c.experts, c.gate_bias);
    case protocol::Gate::Cosine:
      return std::make_shared<CosineGateImpl>(dim, c.experts, c.cosine_proj_dim, c.cosine_init_t);
  }
  throw std::invalid_argument("unknown moe.gate");
}

}  // namespace

SoftmaxTopKRouter::SoftmaxTopKRouter(int64_t model_dim, const protocol::MoeConfig& config)
    : Router(config), gate_(make_gate(model_dim, config)) {}

Routing SoftmaxTopKRouter::route(const at::Tensor& tokens, at::ScalarType dtype,
                                 const RouteContext& where) {
  trace::ScopedPhase phase("gate");
  Routing r;
  gate_logits(tokens, where, r);
  r.scores = at::softmax(r.noisy, 1);
  const RoutingOptions options{config_.top_k, config_.capacity_factor,
                               config_.batch_prioritized_routing, where.alignment,
                               where.buffer_alignment};
  const at::Tensor bias = bias_for_choice(r.scores.device());
  r.plan = where.over_group() ? make_group_routing_plan(r.scores, bias, options, *where.group)
                              : make_routing_plan(r.scores, bias, options);
  r.gates = gate_values(r.scores, r.noisy, r.plan).to(dtype);
  return r;
}

void SoftmaxTopKRouter::gate_logits(const at::Tensor& tokens, const RouteContext& where,
                                    Routing& r) const {
  r.logits = gate_->logits(config_.fp32_gate ? tokens.to(at::kFloat) : tokens);
  r.noisy = r.logits;
  if (where.training && config_.gate_noise > 0) {
    const double scale = config_.gate_noise / static_cast<double>(config_.experts);
    r.noisy = r.logits + group_noise(r.logits, where) * scale;
  }
}

at::Tensor SoftmaxTopKRouter::group_noise(const at::Tensor& logits,
                                          const RouteContext& where) const {
  if (!where.over_group()) return at::randn_like(logits);
  // Every rank draws the group's noise and keeps its rows: the same noise as one process would
  // add to the concatenated batch, and every rank's generator stays in step.
  const int64_t N = logits.size(0);
  auto all = at::randn({N * where.group->world_size(), logits.size(1)}, logits.options());
  return all.narrow(0, N * where.group->rank(), N);
}

at::Tensor SoftmaxTopKRouter::gate_values(const at::Tensor& scores, const at::Tensor& /*noisy*/,
                                          const RoutingPlan& plan) const {
  auto g = scores.gather(1, plan.idx.t().to(at::kLong));  // [N, k]
  if (config_.normalize_gate && plan.top_k > 1) {
    g = g / g.sum(1, /*keepdim=*/true).clamp_min(dtype_eps(g.scalar_type()));
  }
  return g.t();
}

at::Tensor SoftmaxTopKRouter::aux_loss(const Routing& r, const RouteContext& where) const {
  if (config_.aux_loss == protocol::AuxLoss::GShard) {
    return gshard_loss(r.scores, r.plan.first_counts, r.plan.group_tokens);
  }
  if (config_.aux_loss == protocol::AuxLoss::HfLoadBalancing) {
    // This layer alone (its telemetry figure); the model's loss combines the layers first.
    const auto share = r.plan.demand.to(r.scores.scalar_type()) /
                       static_cast<double>(std::max<int64_t>(r.plan.group_tokens, 1));
    return (share * r.scores.mean(0)).sum() * static_cast<double>(config_.experts);
  }
  if (config_.aux_loss == protocol::AuxLoss::SeqBalance) {
    return seq_balance_loss(r.scores, r.plan.idx, where.sequence_tokens);
  }
  if (config_.aux_loss == protocol::AuxLoss::LoadImportance) {
    GroupSum over_group;
    if (where.over_group()) {
      over_group = [g = where.group](const at::Tensor& t) { return all_reduce_sum(t, *g); };
    }
    return load_importance_loss(at::softmax(r.logits, 1), r.noisy, config_.gate_noise, r.plan.top_k,
                                over_group);
  }
  return at::zeros({}, r.scores.options());
}

at::Tensor TopKSoftmaxRouter::gate_values(const at::Tensor& /*scores*/, const at::Tensor& noisy,
                                          const RoutingPlan& plan) const {
  const auto chosen = noisy.gather(1, plan.idx.t().to(at::kLong));  // [N, k]
  return at::softmax(chosen, 1).t();
}

}  // namespace moe::layer

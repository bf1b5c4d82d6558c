#include "moe/moe_layer.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "moe/aux_losses.h"
#include "moe/dispatch_function.h"
#include "moe/group_routing.h"
#include "moe/token_dispatcher.h"
#include "runtime/autocast.h"
#include "telemetry/phase_timer.h"

namespace moe {

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
  if (c.gate == "top") return std::make_shared<TopGateImpl>(dim, c.experts);
  if (c.gate == "cosine") {
    return std::make_shared<CosineGateImpl>(dim, c.experts, c.cosine_proj_dim, c.cosine_init_t);
  }
  throw std::invalid_argument("unknown gate '" + c.gate + "' (expected top or cosine)");
}

}  // namespace

MoeLayerImpl::MoeLayerImpl(int64_t model_dim, const protocol::MoeConfig& config, int64_t alignment)
    : model_dim_(model_dim), config_(config), alignment_(alignment) {
  gate_ = make_gate(model_dim, config);
  gates_ = register_module("gates", torch::nn::ModuleList(gate_));
  experts_ = register_module(
      "experts", Experts(config.experts, model_dim, config.hidden,
                         parse_activation(config.activation), config.fc1_bias, config.fc2_bias));
  // A plain member, not a buffer: Module::to(dtype) must not cast it, it stays float32.
  selection_bias_ = torch::zeros({config.experts});
  pending_demand_ = torch::zeros({config.experts}, at::kLong);
}

at::Tensor MoeLayerImpl::gate_values(const at::Tensor& scores, const RoutingPlan& plan) const {
  auto g = scores.gather(1, plan.idx.t().to(at::kLong));  // [N, k]
  if (config_.normalize_gate && plan.top_k > 1) {
    g = g / g.sum(1, /*keepdim=*/true).clamp_min(dtype_eps(g.scalar_type()));
  }
  return g.t();
}

at::Tensor MoeLayerImpl::auxiliary_loss(const at::Tensor& logits, const at::Tensor& noisy_logits,
                                        const at::Tensor& scores, const RoutingPlan& plan) const {
  if (config_.aux_loss == "gshard") {
    return gshard_loss(scores, plan.first_counts, plan.group_tokens);
  }
  if (config_.aux_loss == "load_importance") {
    GroupSum over_group;
    if (group() && !group()->is_single()) {
      over_group = [g = group()](const at::Tensor& t) { return all_reduce_sum(t, *g); };
    }
    return load_importance_loss(at::softmax(logits, 1), noisy_logits, config_.gate_noise,
                                plan.top_k, over_group);
  }
  return at::zeros({}, scores.options());
}

MoeLayerImpl::Routing MoeLayerImpl::route(const at::Tensor& tokens, at::ScalarType dtype) {
  ScopedPhase phase("gate");
  Routing r;
  r.logits = gate_->logits(config_.fp32_gate ? tokens.to(at::kFloat) : tokens);
  r.noisy = r.logits;
  if (is_training() && config_.gate_noise > 0) {
    const double scale = config_.gate_noise / static_cast<double>(config_.experts);
    r.noisy = r.logits + group_noise(r.logits) * scale;
  }
  r.scores = at::softmax(r.noisy, 1);
  RoutingOptions options{config_.top_k, config_.capacity_factor, config_.batch_prioritized_routing,
                         alignment_, placement_.slot_alignment()};
  // The bias lives where the layer computes (not a buffer, so Module::to does not move it).
  if (config_.bias_balancing.enabled && selection_bias_.device() != r.scores.device()) {
    selection_bias_ = selection_bias_.to(r.scores.device());
  }
  at::Tensor bias = config_.bias_balancing.enabled ? selection_bias_ : at::Tensor();
  r.plan = group() && !group()->is_single()
               ? make_group_routing_plan(r.scores, bias, options, *group())
               : make_routing_plan(r.scores, bias, options);
  r.gates = gate_values(r.scores, r.plan).to(dtype);
  return r;
}

at::Tensor MoeLayerImpl::group_noise(const at::Tensor& logits) const {
  if (!group() || group()->is_single()) return at::randn_like(logits);
  // Every rank draws the group's noise and keeps its rows: the same noise as one process would
  // add to the concatenated batch, and every rank's generator stays in step.
  const int64_t N = logits.size(0);
  auto all = at::randn({N * group()->world_size(), logits.size(1)}, logits.options());
  return all.narrow(0, N * group()->rank(), N);
}

LayerLoad MoeLayerImpl::load_stats(const Routing& r, const MoeOutput& out) const {
  LayerLoad load{r.plan.demand, r.plan.kept, r.plan.group_capacity, {}};
  // Per-token means of this rank, averaged over the group (every rank has as many tokens). Built
  // with tensor ops on the device: nothing here waits for it.
  const auto doubles = [](const at::Tensor& t) { return t.detach().to(at::kDouble).reshape({-1}); };
  load.means = at::cat({doubles(r.scores.mean(0)), doubles(router_entropy(r.scores)),
                        doubles(out.l_aux), doubles(out.z_loss)});
  if (group() && !group()->is_single()) {
    group()->all_reduce_sum(load.means);
    load.means /= static_cast<double>(group()->world_size());
  }
  return load;
}

MoeOutput MoeLayerImpl::forward(const at::Tensor& x) {
  if (input_observer_) input_observer_(x);
  if (x.is_cuda() && autocast_enabled(at::kCUDA)) return forward_cuda_autocast(x);
  if (!autocast_enabled(at::kCPU)) return forward_in_dtype(x);
  // Under CPU autocast (train.amp) the layer runs in its parameters' dtype: its autograd ops and
  // kernels expect one dtype throughout, which autocast's bfloat16 GEMMs inside them would break.
  // Autocast still covers the model around it (attention, convolutions, dense FFNs).
  const at::ScalarType cpu_dtype = autocast_dtype(at::kCPU);
  set_autocast(at::kCPU, false, cpu_dtype);
  struct Restore {
    at::ScalarType dtype;
    ~Restore() { set_autocast(at::kCPU, true, dtype); }
  } restore{cpu_dtype};
  return forward_in_dtype(x.to(experts_->parameters().front().scalar_type()));
}

// Autocast's casts inside the layer's own autograd functions would mix dtypes, so it is off
// inside and the layer casts what it computes in bfloat16 itself.
MoeOutput MoeLayerImpl::forward_cuda_autocast(const at::Tensor& x) {
  set_autocast(at::kCUDA, false, at::kBFloat16);
  experts_->set_compute_dtype(at::kBFloat16);
  struct Restore {
    ExpertsImpl& experts;
    ~Restore() {
      experts.set_compute_dtype(c10::nullopt);
      set_autocast(at::kCUDA, true, at::kBFloat16);
    }
  } restore{*experts_};
  return forward_in_dtype(x, at::kBFloat16);
}

MoeOutput MoeLayerImpl::forward_in_dtype(const at::Tensor& x,
                                         c10::optional<at::ScalarType> compute) {
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == model_dim_, "MoE layer expects [..., ", model_dim_,
              "] input, got ", x.sizes());
  const auto gate_tokens = x.reshape({-1, model_dim_});
  const auto r = route(gate_tokens, compute.value_or(x.scalar_type()));
  const auto tokens = compute ? gate_tokens.to(*compute) : gate_tokens;
  // postscore weights the combine, prescore the dispatch (docs/ROUTING.md, "Dispatch, experts,
  // combine").
  const at::Tensor dispatch_w = config_.postscore ? at::Tensor() : r.gates;
  const at::Tensor combine_w = config_.postscore ? r.gates : at::Tensor();
  at::Tensor dispatched, expert_out, out;
  {
    ScopedPhase phase("dispatch");
    dispatched = dispatch_tokens(tokens, dispatch_w, r.plan);
  }
  expert_out = token_dispatcher_for(placement_).run(dispatched, *experts_, placement_, r.plan);
  {
    ScopedPhase phase("combine");
    out = combine_tokens(expert_out, combine_w, r.plan);
  }

  MoeOutput result;
  result.output = out.reshape(x.sizes()).to(x.scalar_type());
  result.l_aux = auxiliary_loss(r.logits, r.noisy, r.scores, r.plan);
  result.z_loss = router_z_loss(r.logits);
  result.stats = load_stats(r, result);
  if (is_training()) {
    if (pending_demand_.device() != r.plan.demand.device()) {
      pending_demand_ = pending_demand_.to(r.plan.demand.device());
    }
    pending_demand_ += r.plan.demand;
  }
  return result;
}

MoeOutput MoeLayerImpl::route_only(const at::Tensor& x) {
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == model_dim_, "MoE layer expects [..., ", model_dim_,
              "] input, got ", x.sizes());
  const auto r = route(x.reshape({-1, model_dim_}), x.scalar_type());
  MoeOutput result;
  result.l_aux = auxiliary_loss(r.logits, r.noisy, r.scores, r.plan);
  result.z_loss = router_z_loss(r.logits);
  result.stats = load_stats(r, result);
  return result;
}

void MoeLayerImpl::set_routing(const protocol::MoeConfig& config) {
  const protocol::MoeConfig& c = config_;
  if (config.experts != c.experts || config.hidden != c.hidden || config.gate != c.gate ||
      config.activation != c.activation || config.fc1_bias != c.fc1_bias ||
      config.fc2_bias != c.fc2_bias ||
      (c.gate == "cosine" && config.cosine_proj_dim != c.cosine_proj_dim)) {
    throw std::invalid_argument(
        "experts, hidden, gate, activation, fc1_bias, fc2_bias and cosine_proj_dim shape the "
        "layer's parameters and cannot change");
  }
  config_ = config;
}

void MoeLayerImpl::set_selection_bias(const at::Tensor& bias) {
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == config_.experts,
              "selection bias: expected shape [", config_.experts, "], got ", bias.sizes());
  selection_bias_ = bias.to(at::kFloat).contiguous().clone();
}

void MoeLayerImpl::distribute(dist::ProcessGroup& group, bool split_experts,
                              int64_t overlap_degree) {
  placement_.group = &group;
  placement_.sharded = split_experts && group.world_size() > 1;
  if (!placement_.sharded) return;
  placement_.overlap_degree = std::max<int64_t>(1, overlap_degree);
  placement_.partition =
      ExpertPartition::of(config_.experts, config_.hidden, group.world_size(), group.rank());
  experts_->keep_part(placement_.partition);
  // Capacity is rounded up to a multiple of the sharding degree times the overlap degree
  // (docs/ROUTING.md, "Capacity").
  alignment_ = std::max(alignment_, placement_.partition.shards * placement_.overlap_degree);
}

void MoeLayerImpl::update_selection_bias() {
  if (!config_.bias_balancing.enabled) return;
  // bias[e] += rate * sign(mean demand - demand[e]), on whichever device the layer runs.
  const auto demand = pending_demand_.to(at::kDouble);
  pending_demand_.zero_();
  const auto step = (demand.mean() - demand).sign() * config_.bias_balancing.rate;
  if (selection_bias_.device() != step.device())
    selection_bias_ = selection_bias_.to(step.device());
  selection_bias_ += step.to(at::kFloat);
}

}  // namespace moe

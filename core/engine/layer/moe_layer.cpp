#include "layer/moe_layer.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <stdexcept>

#include "layer/dispatch_function.h"
#include "layer/token_dispatcher.h"
#include "runtime/autocast.h"
#include "trace/phase_timer.h"

namespace moe::layer {

MoeLayerImpl::MoeLayerImpl(int64_t model_dim, const protocol::MoeConfig& config, int64_t alignment)
    : model_dim_(model_dim), alignment_(alignment), router_(make_router(model_dim, config)) {
  gates_ = register_module("gates", torch::nn::ModuleList(router_->gate_module()));
  experts_ = register_module("experts", make_experts(model_dim, config));
}

RouteContext MoeLayerImpl::route_context() const {
  return RouteContext{group(), alignment_, placement_.slot_alignment(), is_training()};
}

MoeOutput MoeLayerImpl::routed(const Routing& r, const RouteContext& where) const {
  MoeOutput result;
  result.l_aux = router_->aux_loss(r, where);
  result.z_loss = router_->z_loss(r);
  if (config().aux_loss == protocol::AuxLoss::HfLoadBalancing) {
    result.choice_share = r.plan.demand.to(r.scores.scalar_type()) /
                          static_cast<double>(std::max<int64_t>(r.plan.group_tokens, 1));
    result.mean_prob = r.scores.mean(0);
  }
  result.stats = load_stats(r, result);
  return result;
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
  if (x.is_cuda() && runtime::autocast_enabled(at::kCUDA)) return forward_cuda_autocast(x);
  if (!runtime::autocast_enabled(at::kCPU)) return forward_in_dtype(x);
  // Under CPU autocast (train.amp) the layer runs in its parameters' dtype: its autograd ops and
  // kernels expect one dtype throughout, which autocast's bfloat16 GEMMs inside them would break.
  // Autocast still covers the model around it (attention, convolutions, dense FFNs).
  const at::ScalarType cpu_dtype = runtime::autocast_dtype(at::kCPU);
  runtime::set_autocast(at::kCPU, false, cpu_dtype);
  struct Restore {
    at::ScalarType dtype;
    ~Restore() { runtime::set_autocast(at::kCPU, true, dtype); }
  } restore{cpu_dtype};
  return forward_in_dtype(x.to(experts_->parameters().front().scalar_type()));
}

// Autocast's casts inside the layer's own autograd functions would mix dtypes, so it is off
// inside and the layer casts what it computes in bfloat16 itself.
MoeOutput MoeLayerImpl::forward_cuda_autocast(const at::Tensor& x) {
  runtime::set_autocast(at::kCUDA, false, at::kBFloat16);
  experts_->set_compute_dtype(at::kBFloat16);
  struct Restore {
    ExpertsImpl& experts;
    ~Restore() {
      experts.set_compute_dtype(c10::nullopt);
      runtime::set_autocast(at::kCUDA, true, at::kBFloat16);
    }
  } restore{*experts_};
  return forward_in_dtype(x, at::kBFloat16);
}

MoeOutput MoeLayerImpl::forward_in_dtype(const at::Tensor& x,
                                         c10::optional<at::ScalarType> compute) {
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == model_dim_, "MoE layer expects [..., ", model_dim_,
              "] input, got ", x.sizes());
  const auto gate_tokens = x.reshape({-1, model_dim_});
  RouteContext where = route_context();
  if (x.dim() >= 3) where.sequence_tokens = x.size(-2);  // [B, T, M]: B sequences of T tokens
  const auto r = router_->route(gate_tokens, compute.value_or(x.scalar_type()), where);
  if (routing_observer_) routing_observer_(r);
  const auto tokens = compute ? gate_tokens.to(*compute) : gate_tokens;
  // postscore weights the combine, prescore the dispatch (docs/ROUTING.md, "Dispatch, experts,
  // combine").
  const at::Tensor dispatch_w = config().postscore ? at::Tensor() : r.gates;
  const at::Tensor combine_w = config().postscore ? r.gates : at::Tensor();
  at::Tensor dispatched, expert_out, out;
  {
    trace::ScopedPhase phase("dispatch");
    dispatched = dispatch_tokens(tokens, dispatch_w, r.plan);
  }
  expert_out = token_dispatcher_for(placement_).run(dispatched, *experts_, placement_, r.plan);
  {
    trace::ScopedPhase phase("combine");
    out = combine_tokens(expert_out, combine_w, r.plan);
  }

  MoeOutput result = routed(r, where);
  result.output = out.reshape(x.sizes()).to(x.scalar_type());
  if (is_training()) router_->add_demand(r.plan.demand);
  return result;
}

MoeOutput MoeLayerImpl::route_only(const at::Tensor& x) {
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == model_dim_, "MoE layer expects [..., ", model_dim_,
              "] input, got ", x.sizes());
  const RouteContext where = route_context();
  return routed(router_->route(x.reshape({-1, model_dim_}), x.scalar_type(), where), where);
}

void MoeLayerImpl::set_routing(const protocol::MoeConfig& config) {
  const protocol::MoeConfig& c = this->config();
  if (config.experts != c.experts || config.hidden != c.hidden || config.gate != c.gate ||
      config.activation != c.activation || config.fc1_bias != c.fc1_bias ||
      config.fc2_bias != c.fc2_bias || config.gate_bias != c.gate_bias ||
      config.expert_ffn != c.expert_ffn || config.swiglu_limit != c.swiglu_limit ||
      config.swiglu_alpha != c.swiglu_alpha ||
      (c.gate == protocol::Gate::Cosine && config.cosine_proj_dim != c.cosine_proj_dim)) {
    throw std::invalid_argument(
        "experts, hidden, gate, gate_bias, activation, expert_ffn, swiglu_limit, swiglu_alpha, "
        "fc1_bias, fc2_bias and cosine_proj_dim shape the layer's parameters or experts and "
        "cannot change");
  }
  router_->set_config(config);
}

void MoeLayerImpl::set_selection_bias(const at::Tensor& bias) {
  router_->set_selection_bias(bias);
}

void MoeLayerImpl::distribute(dist::ProcessGroup& group, bool split_experts,
                              int64_t overlap_degree) {
  placement_.group = &group;
  placement_.sharded = split_experts && group.world_size() > 1;
  if (!placement_.sharded) return;
  placement_.overlap_degree = std::max<int64_t>(1, overlap_degree);
  placement_.partition =
      ExpertPartition::of(config().experts, config().hidden, group.world_size(), group.rank());
  experts_->keep_part(placement_.partition);
  // Capacity is rounded up to a multiple of the sharding degree times the overlap degree
  // (docs/ROUTING.md, "Capacity").
  alignment_ = std::max(alignment_, placement_.partition.shards * placement_.overlap_degree);
}

void MoeLayerImpl::update_selection_bias() {
  router_->update_selection_bias();
}

}  // namespace moe::layer

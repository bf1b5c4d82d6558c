#pragma once
// The MoE layer of docs/ROUTING.md as one torch::nn::Module with Tutel's parameter names: a Router
// (gate, choice, auxiliary losses; router.h), dispatch into the [E, C, M] buffer, a TokenDispatcher
// that brings it to the experts and back (token_dispatcher.h), combine, and the load metrics.
// Forward phases (gate, dispatch, experts, combine) are timed into the active PhaseTimes.
#include <torch/torch.h>

#include <functional>

#include "layer/expert_parallel.h"
#include "layer/experts.h"
#include "layer/load_metrics.h"
#include "layer/router.h"
#include "protocol/run_config.h"

namespace moe::layer {

struct MoeOutput {
  at::Tensor output;  // same shape and dtype as the input
  at::Tensor l_aux;   // 0-d, in the routing dtype (float32 with fp32_gate)
  at::Tensor z_loss;  // 0-d, in the routing dtype
  LayerLoad stats;    // on the device; stats.host() reads them
  // moe.aux_loss "hf_load_balancing": this layer's share of all k choices per expert (no
  // gradient) and mean router probability per expert [E]; the model combines every layer's.
  at::Tensor choice_share, mean_prob;
};

class MoeLayerImpl : public torch::nn::Module {
 public:
  // alignment: capacity is rounded up to a multiple of it (expert sharding x overlap degree).
  MoeLayerImpl(int64_t model_dim, const protocol::MoeConfig& config, int64_t alignment = 1);

  // x [..., model_dim] in float32, float64, float16 or bfloat16. Under CPU autocast the layer
  // runs in its parameters' dtype (x is converted); under CUDA autocast (train.amp on a GPU) the
  // gate stays in x's dtype and dispatch, expert GEMMs and combine run in bfloat16, the output
  // coming back in x's dtype.
  MoeOutput forward(const at::Tensor& x);

  // Only the routing of x: gate, plan, l_aux, z_loss and the load, as forward() computes them,
  // without dispatch, experts or combine (output stays undefined). For what-if replays.
  MoeOutput route_only(const at::Tensor& x);
  // Replaces the routing settings (top_k, capacity_factor, gate_noise, normalize_gate, ...);
  // std::invalid_argument when `config` differs in a key that shapes the parameters.
  void set_routing(const protocol::MoeConfig& config);
  // Called with each forward pass's input before anything else, while set (telemetry.capture_every
  // sets it on capture steps only); an empty function removes it.
  void set_input_observer(std::function<void(const at::Tensor&)> observer) {
    input_observer_ = std::move(observer);
  }
  // Called with each forward pass's routing (the choices and weights it combines with), while set
  // (generation's per-token telemetry, routing analysis); an empty function removes it.
  void set_routing_observer(std::function<void(const Routing&)> observer) {
    routing_observer_ = std::move(observer);
  }

  // Aux-loss-free balancing (docs/ROUTING.md, "Aux-loss-free bias balancing"): call after each
  // optimizer step. The demand summed since the last call is already the group's (every rank
  // routes the concatenated batch), so every rank's bias moves the same way.
  void update_selection_bias();

  // Runs this layer over `group` (docs/ROUTING.md, "Expert parallelism"): routing over the group's
  // concatenated batch and, when `split_experts`, only this rank's experts kept (E % W == 0).
  // Call before the optimizer sees the parameters.
  // overlap_degree: parallel.a2a_overlap_degree (overlapped_experts.h).
  void distribute(dist::ProcessGroup& group, bool split_experts, int64_t overlap_degree = 1);
  // Tutel's adaptive r for the next forward passes (0 or 1; see ExpertPlacementOnGroup).
  void set_adaptive_r(int64_t r) { placement_.r = r; }
  const ExpertPlacementOnGroup& placement() const { return placement_; }

  const protocol::MoeConfig& config() const { return router_->config(); }
  Router& router() { return *router_; }
  GateImpl& gate() { return router_->gate(); }
  ExpertsImpl& experts() { return *experts_; }
  const at::Tensor& selection_bias() const { return router_->selection_bias(); }
  // Restores the bias from a checkpoint: float32 [E].
  void set_selection_bias(const at::Tensor& bias);

 private:
  // The layer with tokens, gates and experts in `compute` (x's dtype when undefined).
  MoeOutput forward_in_dtype(const at::Tensor& x, c10::optional<at::ScalarType> compute = {});
  MoeOutput forward_cuda_autocast(const at::Tensor& x);
  RouteContext route_context() const;
  // The routing's losses and load; the output is left to the caller.
  MoeOutput routed(const Routing& r, const RouteContext& where) const;
  LayerLoad load_stats(const Routing& r, const MoeOutput& out) const;
  dist::ProcessGroup* group() const { return placement_.group; }

  int64_t model_dim_;
  int64_t alignment_;
  std::unique_ptr<Router> router_;
  torch::nn::ModuleList gates_{nullptr};  // the router's gate, as Tutel names it
  Experts experts_{nullptr};
  ExpertPlacementOnGroup placement_;
  std::function<void(const at::Tensor&)> input_observer_;
  std::function<void(const Routing&)> routing_observer_;
};
TORCH_MODULE(MoeLayer);

}  // namespace moe::layer

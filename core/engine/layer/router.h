#pragma once
// How tokens choose their experts (docs/ROUTING.md, "Gates" to "Dropping"): a Router turns the
// layer's tokens into gate values and a RoutingPlan, computes the routing's auxiliary losses and
// keeps the aux-loss-free selection bias. One class per routing rule, made by make_router();
// SoftmaxTopKRouter (Tutel's rule) is the first. A router's parameters live in its gate (the
// module that maps tokens to logits), which the layer registers as gates.0 (Tutel's names).
#include <torch/torch.h>

#include <memory>

#include "dist/process_group.h"
#include "layer/gate.h"
#include "layer/routing_plan.h"
#include "protocol/run_config.h"

namespace moe::layer {

// Where the routing runs, from the layer's placement.
struct RouteContext {
  dist::ProcessGroup* group = nullptr;  // over the group's concatenated batch when it has ranks
  int64_t alignment = 1;                // capacity is a multiple of it
  int64_t buffer_alignment = 1;         // RoutingOptions::buffer_alignment
  bool training = false;
  int64_t sequence_tokens = 0;  // tokens per sequence, in order (0: the tokens are one sequence)
  bool over_group() const { return group != nullptr && !group->is_single(); }
};

// The gate's output and the routing decided from it.
struct Routing {
  at::Tensor logits;  // [N, E], the gate's
  at::Tensor noisy;   // [N, E], logits with the training noise (logits when there is none)
  at::Tensor scores;  // [N, E], what the choice and the load metrics read
  at::Tensor gates;   // [k, N] in the data dtype: each choice's weight
  RoutingPlan plan;
};

class Router {
 public:
  explicit Router(const protocol::MoeConfig& config);
  virtual ~Router() = default;

  // tokens [N, M] -> the routing, its gate values in `dtype`.
  virtual Routing route(const at::Tensor& tokens, at::ScalarType dtype,
                        const RouteContext& where) = 0;
  // moe.aux_loss of this routing: 0-d, in the routing dtype (zero when "none").
  virtual at::Tensor aux_loss(const Routing& routing, const RouteContext& where) const = 0;
  // The router z-loss, mean_n (logsumexp_e logits[n, e])^2.
  virtual at::Tensor z_loss(const Routing& routing) const;
  virtual GateImpl& gate() const = 0;
  virtual std::shared_ptr<GateImpl> gate_module() const = 0;

  const protocol::MoeConfig& config() const { return config_; }
  // New routing settings; the layer has checked that they keep the parameters' shapes.
  void set_config(const protocol::MoeConfig& config) { config_ = config; }

  // Aux-loss-free balancing (docs/ROUTING.md, "Aux-loss-free bias balancing"). The bias is float32
  // [E], a plain member rather than a buffer, so that Module::to(dtype) never casts it.
  const at::Tensor& selection_bias() const { return selection_bias_; }
  void set_selection_bias(const at::Tensor& bias);
  // A training pass's demand [E] (already the group's), summed until the next update.
  void add_demand(const at::Tensor& demand);
  // bias[e] += rate * sign(mean demand - demand[e]) over the demand since the last call.
  void update_selection_bias();

 protected:
  // The bias on `device` when balancing is on; undefined when it is off.
  at::Tensor bias_for_choice(const at::Device& device);

  protocol::MoeConfig config_;

 private:
  at::Tensor selection_bias_;  // [E] float32
  at::Tensor pending_demand_;  // [E] int64
};

std::unique_ptr<Router> make_router(int64_t model_dim, const protocol::MoeConfig& config);

}  // namespace moe::layer

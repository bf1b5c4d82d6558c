#pragma once
// Tutel's routing rule (docs/ROUTING.md, "Gates" to "Dropping"): scores = softmax over the gate's
// logits (plus noise while training), each token's k best experts by score (plus the selection
// bias, for the choice only), slots in token or batch-prioritized order up to the capacity, gate
// values the chosen scores (normalised over the k when moe.normalize_gate). The gate is moe.gate:
// top (a linear map) or cosine.
#include "layer/router.h"

namespace moe::layer {

class SoftmaxTopKRouter final : public Router {
 public:
  SoftmaxTopKRouter(int64_t model_dim, const protocol::MoeConfig& config);

  Routing route(const at::Tensor& tokens, at::ScalarType dtype, const RouteContext& where) override;
  at::Tensor aux_loss(const Routing& routing, const RouteContext& where) const override;
  GateImpl& gate() const override { return *gate_; }
  std::shared_ptr<GateImpl> gate_module() const override { return gate_; }

 private:
  // randn like logits; across ranks, this rank's rows of the group's noise.
  at::Tensor group_noise(const at::Tensor& logits, const RouteContext& where) const;
  at::Tensor gate_values(const at::Tensor& scores, const RoutingPlan& plan) const;

  std::shared_ptr<GateImpl> gate_;
};

}  // namespace moe::layer

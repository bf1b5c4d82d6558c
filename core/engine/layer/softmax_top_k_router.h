#pragma once
// Tutel's routing rule (docs/ROUTING.md, "Gates" to "Dropping"): scores = softmax over the gate's
// logits (plus noise while training), each token's k best experts by score (plus the selection
// bias, for the choice only), slots in token or batch-prioritized order up to the capacity, gate
// values the chosen scores (normalised over the k when moe.normalize_gate). The gate is moe.gate:
// top (a linear map) or cosine.
#include "layer/router.h"

namespace moe::layer {

// Mixtral's rule (moe.router "top_k_softmax"): the same choice (the k best logits are the k best
// scores), gate values the softmax over the k chosen logits, so they sum to 1 for every k (also
// k = 1, where Tutel's rule keeps the score). Qwen-MoE and OLMoE with norm_topk_prob compute the
// same. The scores, the load metrics and the aux loss read stay the softmax over all experts.
class TopKSoftmaxRouter;

class SoftmaxTopKRouter : public Router {
 public:
  SoftmaxTopKRouter(int64_t model_dim, const protocol::MoeConfig& config);

  Routing route(const at::Tensor& tokens, at::ScalarType dtype, const RouteContext& where) override;
  at::Tensor aux_loss(const Routing& routing, const RouteContext& where) const override;
  GateImpl& gate() const override { return *gate_; }
  std::shared_ptr<GateImpl> gate_module() const override { return gate_; }

 protected:
  // Each choice's weight [k, N] from the routing's scores and noisy logits [N, E].
  virtual at::Tensor gate_values(const at::Tensor& scores, const at::Tensor& noisy,
                                 const RoutingPlan& plan) const;
  // The gate's logits of tokens [N, M] and, while training with moe.gate_noise, their noisy copy.
  void gate_logits(const at::Tensor& tokens, const RouteContext& where, Routing& r) const;

 private:
  // randn like logits; across ranks, this rank's rows of the group's noise.
  at::Tensor group_noise(const at::Tensor& logits, const RouteContext& where) const;

  std::shared_ptr<GateImpl> gate_;
};

class TopKSoftmaxRouter final : public SoftmaxTopKRouter {
 public:
  using SoftmaxTopKRouter::SoftmaxTopKRouter;

 protected:
  at::Tensor gate_values(const at::Tensor& scores, const at::Tensor& noisy,
                         const RoutingPlan& plan) const override;
};

}  // namespace moe::layer

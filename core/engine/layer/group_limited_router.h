#pragma once
// DeepSeek's routing rule (moe.router "group_limited_top_k", docs/ROUTING.md, "Group-limited
// routing"): scores s = softmax over the gate's logits (DeepSeek-V2) or sigmoid of each
// (DeepSeek-V3, moe.score_function); the experts split into moe.expert_groups equal groups, each
// scored by its best expert (max) or its best two (top2_sum) on the choice scores s + b (b the
// aux-loss-free selection bias, DeepSeek-V3's e_score_correction_bias); a token's k experts are
// the best choice scores inside its moe.topk_groups best groups. Gate values are the unbiased s of
// the chosen experts, divided by their sum when moe.normalize_gate (norm_topk_prob, for every k),
// times moe.routed_scaling. The scores the load metrics and the aux losses read are s normalised
// to sum to 1 per token (DeepSeek-V3's s', for a sigmoid).
#include "layer/softmax_top_k_router.h"

namespace moe::layer {

class GroupLimitedRouter final : public SoftmaxTopKRouter {
 public:
  using SoftmaxTopKRouter::SoftmaxTopKRouter;

  Routing route(const at::Tensor& tokens, at::ScalarType dtype, const RouteContext& where) override;

 private:
  // choice [N, E] with -inf outside each token's moe.topk_groups best groups.
  at::Tensor keep_best_groups(const at::Tensor& choice) const;
};

}  // namespace moe::layer

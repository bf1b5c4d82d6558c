#pragma once
// Gated experts (moe.expert_ffn "glu"): Y[e] = (act(D G[e]^T + bg) * (D U[e]^T + bu)) W[e] + bw,
// SwiGLU with silu as Mixtral, Qwen-MoE, OLMoE and DeepSeek use. Weights, in order:
// batched_gate_w [E, H, M], batched_gate_bias [E, H] (moe.fc1_bias), batched_up_w [E, H, M],
// batched_up_bias [E, H] (moe.fc1_bias), batched_down_w [E, H, M], batched_down_bias [E, M]
// (moe.fc2_bias). Forward and backward by hand, as the FFN experts: each GEMM writes the layout
// its gradient needs, and the saved activations are reused. With a clamp (moe.swiglu_limit > 0,
// GPT-OSS) the product is g·sigmoid(alpha g)·(u + 1), g = min(gate, limit), u = clamp(up, ±limit).
#include "layer/experts.h"

namespace moe::layer {

// How the gate and up projections combine: act(gate) * up, or GPT-OSS's clamped form.
struct GluCombine {
  Activation act = Activation::Silu;
  double limit = 0.0;  // 0: no clamp
  double alpha = 1.0;
};

class GluExpertsImpl final : public ExpertsImpl {
 public:
  GluExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, GluCombine combine,
                 bool gate_up_bias, bool down_bias);
  Activation activation() const { return combine_.act; }

  using ExpertsImpl::forward_with;
  at::Tensor forward_with(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                          const at::Tensor& rows) const override;
  at::Tensor forward_saving(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                            ExpertsSaved& saved) const override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_y, const ExpertsSaved& saved,
                                   const std::vector<at::Tensor>& w, bool want_input,
                                   bool want_weights) const override;

 private:
  GluCombine combine_;
};
TORCH_MODULE(GluExperts);

}  // namespace moe::layer

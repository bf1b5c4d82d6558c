#pragma once
// Gated experts (moe.expert_ffn "glu"): Y[e] = (act(D G[e]^T + bg) * (D U[e]^T + bu)) W[e] + bw,
// SwiGLU with silu as Mixtral, Qwen-MoE, OLMoE and DeepSeek use. Weights, in order:
// batched_gate_w [E, H, M], batched_gate_bias [E, H] (moe.fc1_bias), batched_up_w [E, H, M],
// batched_up_bias [E, H] (moe.fc1_bias), batched_down_w [E, H, M], batched_down_bias [E, M]
// (moe.fc2_bias). Forward and backward by hand, as the FFN experts: each GEMM writes the layout
// its gradient needs, and the saved activations are reused.
#include "layer/experts.h"

namespace moe::layer {

class GluExpertsImpl final : public ExpertsImpl {
 public:
  GluExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act,
                 bool gate_up_bias, bool down_bias);
  Activation activation() const { return act_; }

  at::Tensor forward_with(const at::Tensor& dispatched,
                          const std::vector<at::Tensor>& w) const override;
  at::Tensor forward_saving(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                            ExpertsSaved& saved) const override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_y, const ExpertsSaved& saved,
                                   const std::vector<at::Tensor>& w, bool want_input,
                                   bool want_weights) const override;

 private:
  Activation act_;
};
TORCH_MODULE(GluExperts);

}  // namespace moe::layer

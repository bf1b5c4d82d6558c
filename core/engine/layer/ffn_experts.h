#pragma once
// Tutel's experts: E batched two-layer FFNs, Y[e] = act(D[e] W1[e]^T + b1[e]) W2[e] + b2[e]
// (docs/ROUTING.md, "Dispatch, experts, combine"; parameter names in "Parameter names"). Weights,
// in order: batched_fc1_w [E, H, M], batched_fc1_bias [E, H] (moe.fc1_bias), batched_fc2_w
// [E, H, M], batched_fc2_bias [E, M] (moe.fc2_bias). The GEMMs are expert_ffn.h's.
#include "layer/expert_ffn.h"
#include "layer/experts.h"

namespace moe::layer {

class FfnExpertsImpl final : public ExpertsImpl {
 public:
  FfnExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act, bool fc1_bias,
                 bool fc2_bias);
  Activation activation() const { return act_; }

  using ExpertsImpl::forward_with;
  at::Tensor forward_with(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                          const at::Tensor& rows) const override;
  at::Tensor forward_saving(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                            ExpertsSaved& saved) const override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_y, const ExpertsSaved& saved,
                                   const std::vector<at::Tensor>& w, bool want_input,
                                   bool want_weights) const override;

 private:
  Activation act_;
};
TORCH_MODULE(FfnExperts);

}  // namespace moe::layer

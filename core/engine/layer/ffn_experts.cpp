// FfnExpertsImpl (ffn_experts.h).
#include "layer/ffn_experts.h"

#include <cmath>

namespace moe::layer {

namespace {

ExpertWeights ffn_weights(const std::vector<at::Tensor>& w) {
  TORCH_CHECK(w.size() == 4, "FFN experts take 4 weights, got ", w.size());
  return ExpertWeights{w[0], w[1], w[2], w[3]};
}

}  // namespace

FfnExpertsImpl::FfnExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act,
                               bool fc1_bias, bool fc2_bias)
    : act_(act) {
  // nn.Linear's default bounds, per expert: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  const double b1 = 1.0 / std::sqrt(static_cast<double>(model_dim));
  const double b2 = 1.0 / std::sqrt(static_cast<double>(hidden));
  // Drawn in Tutel's order (fc1_w, fc2_w, then the biases), which the seeded weights rely on.
  auto fc1_w = torch::empty({experts, hidden, model_dim}).uniform_(-b1, b1);
  auto fc2_w = torch::empty({experts, hidden, model_dim}).uniform_(-b2, b2);
  at::Tensor fc1_b, fc2_b;
  if (fc1_bias) fc1_b = torch::empty({experts, hidden}).uniform_(-b1, b1);
  if (fc2_bias) fc2_b = torch::empty({experts, model_dim}).uniform_(-b2, b2);
  add_weight(0, "batched_fc1_w", fc1_w, WeightRole::hidden_units);
  add_weight(2, "batched_fc2_w", fc2_w, WeightRole::hidden_units);
  add_weight(1, "batched_fc1_bias", fc1_b, WeightRole::hidden_units);
  add_weight(3, "batched_fc2_bias", fc2_b, WeightRole::output_bias);
}

at::Tensor FfnExpertsImpl::forward_with(const at::Tensor& d, const std::vector<at::Tensor>& w,
                                        const at::Tensor& rows) const {
  return expert_ffn(d, ffn_weights(w), act_, rows);
}

at::Tensor FfnExpertsImpl::forward_saving(const at::Tensor& d, const std::vector<at::Tensor>& w,
                                          ExpertsSaved& saved) const {
  ExpertFfnSaved s;
  auto y = expert_ffn_forward(d, ffn_weights(w), act_, s);
  saved = {s.d, s.z, s.a};
  return y;
}

std::vector<at::Tensor> FfnExpertsImpl::backward(const at::Tensor& grad_y,
                                                 const ExpertsSaved& saved,
                                                 const std::vector<at::Tensor>& w, bool want_input,
                                                 bool want_weights) const {
  const ExpertFfnSaved s{saved.at(0), saved.at(1), saved.at(2), /*rows=*/{}};
  auto g = expert_ffn_backward(grad_y, s, ffn_weights(w), act_, want_input, want_weights);
  return {g.d, g.fc1_w, g.fc1_b, g.fc2_w, g.fc2_b};
}

}  // namespace moe::layer

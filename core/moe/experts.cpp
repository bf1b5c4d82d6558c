#include "moe/experts.h"

#include "moe/expert_activation.h"

#include <cmath>
#include <stdexcept>

namespace moe {

Activation parse_activation(const std::string& name) {
  if (name == "gelu") return Activation::gelu;
  if (name == "relu") return Activation::relu;
  if (name == "silu") return Activation::silu;
  throw std::invalid_argument("unknown activation '" + name + "' (expected gelu, relu or silu)");
}

at::Tensor apply_activation(const at::Tensor& h, Activation act) {
  switch (act) {
    case Activation::gelu: return at::gelu(h);  // exact (erf) form
    case Activation::relu: return at::relu(h);
    case Activation::silu: return at::silu(h);
  }
  return h;
}

ExpertsImpl::ExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act,
                         bool fc1_bias, bool fc2_bias)
    : act_(act) {
  // nn.Linear's default bounds, per expert: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  const double b1 = 1.0 / std::sqrt(static_cast<double>(model_dim));
  const double b2 = 1.0 / std::sqrt(static_cast<double>(hidden));
  fc1_w_ = register_parameter("batched_fc1_w",
                              torch::empty({experts, hidden, model_dim}).uniform_(-b1, b1));
  fc2_w_ = register_parameter("batched_fc2_w",
                              torch::empty({experts, hidden, model_dim}).uniform_(-b2, b2));
  if (fc1_bias) {
    fc1_b_ = register_parameter("batched_fc1_bias", torch::empty({experts, hidden}).uniform_(-b1, b1));
  }
  if (fc2_bias) {
    fc2_b_ = register_parameter("batched_fc2_bias",
                                torch::empty({experts, model_dim}).uniform_(-b2, b2));
  }
}

at::Tensor ExpertsImpl::forward(const at::Tensor& d) {
  auto h = expert_activation(at::bmm(d, fc1_w_.transpose(1, 2)), fc1_b_, act_);
  // The fc2 bias rides in the GEMM's beta=1 input, so no separate pass adds it.
  return fc2_b_.defined() ? at::baddbmm(fc2_b_.unsqueeze(1), h, fc2_w_) : at::bmm(h, fc2_w_);
}

}  // namespace moe

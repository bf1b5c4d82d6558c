#include "moe/experts.h"

#include "moe/expert_ffn.h"

#include <cmath>
#include <stdexcept>

namespace moe {

Activation parse_activation(const std::string& name) {
  if (name == "gelu") return Activation::gelu;
  if (name == "relu") return Activation::relu;
  if (name == "silu") return Activation::silu;
  throw std::invalid_argument("unknown activation '" + name + "' (expected gelu, relu or silu)");
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
    fc1_b_ =
        register_parameter("batched_fc1_bias", torch::empty({experts, hidden}).uniform_(-b1, b1));
  }
  if (fc2_bias) {
    fc2_b_ = register_parameter("batched_fc2_bias",
                                torch::empty({experts, model_dim}).uniform_(-b2, b2));
  }
}

void ExpertsImpl::keep_part(const ExpertPartition& partition) {
  at::NoGradGuard no_grad;
  for (at::Tensor* t : {&fc1_w_, &fc1_b_, &fc2_w_}) {
    if (t->defined()) t->set_data(partition.part_of(*t, false).clone());
  }
  if (fc2_b_.defined()) fc2_b_.set_data(partition.part_of(fc2_b_, true).clone());
}

at::Tensor ExpertsImpl::forward(const at::Tensor& d) {
  const auto w = weights();
  return expert_ffn(d, ExpertWeights{w[0], w[1], w[2], w[3]}, act_);
}

std::vector<at::Tensor> ExpertsImpl::weights() const {
  std::vector<at::Tensor> w{fc1_w_, fc1_b_, fc2_w_, fc2_b_};
  if (!compute_dtype_) return w;
  for (auto& t : w) {
    if (t.defined()) t = t.to(*compute_dtype_);
  }
  return w;
}

}  // namespace moe

#include "layer/gate.h"

#include <cmath>

namespace moe::layer {

namespace F = torch::nn::functional;

// Weights follow the input's dtype so fp32_gate (input upcast to float32) needs no copy of the
// module; a no-op when they already match.
static at::Tensor as_dtype(const at::Tensor& w, const at::Tensor& like) {
  return w.scalar_type() == like.scalar_type() ? w : w.to(like.scalar_type());
}

TopGateImpl::TopGateImpl(int64_t model_dim, int64_t experts, bool bias) {
  wg_ = register_module("wg",
                        torch::nn::Linear(torch::nn::LinearOptions(model_dim, experts).bias(bias)));
}

at::Tensor TopGateImpl::logits(const at::Tensor& x) {
  const at::Tensor bias = wg_->bias.defined() ? as_dtype(wg_->bias, x) : at::Tensor();
  return F::linear(x, as_dtype(wg_->weight, x), bias);
}

CosineGateImpl::CosineGateImpl(int64_t model_dim, int64_t experts, int64_t proj_dim,
                               double init_t) {
  projector_ = register_module("cosine_projector",
                               torch::nn::Linear(torch::nn::LinearOptions(model_dim, proj_dim)));
  sim_matrix_ = register_parameter("sim_matrix", torch::randn({proj_dim, experts}) * 0.01);
  temperature_ = register_parameter("temperature", torch::full({1}, std::log(1.0 / init_t)));
}

at::Tensor CosineGateImpl::logits(const at::Tensor& x) {
  auto projected = F::linear(x, as_dtype(projector_->weight, x), as_dtype(projector_->bias, x));
  auto tokens = F::normalize(projected, F::NormalizeFuncOptions().p(2).dim(1));
  auto experts = F::normalize(as_dtype(sim_matrix_, x), F::NormalizeFuncOptions().p(2).dim(0));
  auto scale = as_dtype(temperature_, x).clamp_max(std::log(100.0)).exp();
  return tokens.matmul(experts) * scale;
}

}  // namespace moe::layer

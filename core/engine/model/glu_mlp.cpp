#include "model/glu_mlp.h"

#include "model/feed_forward.h"

namespace moe::model {

namespace {

torch::nn::Linear unbiased(int64_t in, int64_t out) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false));
}

}  // namespace

GluMlpImpl::GluMlpImpl(int64_t dim, int64_t hidden, protocol::Activation act) : act_(act) {
  gate_proj_ = register_module("gate_proj", unbiased(dim, hidden));
  up_proj_ = register_module("up_proj", unbiased(dim, hidden));
  down_proj_ = register_module("down_proj", unbiased(hidden, dim));
}

at::Tensor GluMlpImpl::forward(const at::Tensor& x) {
  return down_proj_->forward(apply_activation(gate_proj_->forward(x), act_) * up_proj_->forward(x));
}

}  // namespace moe::model

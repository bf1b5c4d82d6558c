#include "model/feed_forward.h"

#include <stdexcept>
#include <string>

namespace moe::model {

bool is_moe_block(int64_t index, int64_t every) {
  if (every < 1)
    throw std::invalid_argument("moe.every must be >= 1, got " + std::to_string(every));
  return index % every == 0;
}

at::Tensor apply_activation(const at::Tensor& x, protocol::Activation act) {
  switch (act) {
    case protocol::Activation::Relu:
      return torch::relu(x);
    case protocol::Activation::Silu:
      return torch::silu(x);
    case protocol::Activation::Gelu:
      break;
  }
  return torch::gelu(x);  // exact (erf) form, as the experts use
}

DenseFfnImpl::DenseFfnImpl(int64_t dim, int64_t hidden, protocol::Activation act) : act_(act) {
  fc1_ = register_module("fc1", torch::nn::Linear(dim, hidden));
  fc2_ = register_module("fc2", torch::nn::Linear(hidden, dim));
}

at::Tensor DenseFfnImpl::forward(const at::Tensor& x) {
  return fc2_->forward(apply_activation(fc1_->forward(x), act_));
}

FeedForward::FeedForward(torch::nn::Module& owner, int64_t dim, const protocol::MoeConfig& config,
                         bool use_moe) {
  if (use_moe) {
    moe_ = owner.register_module("moe", layer::MoeLayer(dim, config));
  } else {
    ffn_ = owner.register_module("ffn", DenseFfn(dim, config.hidden, config.activation));
  }
}

at::Tensor FeedForward::forward(const at::Tensor& x, MoeLosses& losses) {
  if (moe_) return losses.add(moe_->forward(x));
  return ffn_->forward(x);
}

}  // namespace moe::model

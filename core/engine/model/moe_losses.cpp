#include "model/moe_losses.h"

#include <utility>

namespace moe::model {

MoeLosses::MoeLosses(at::ScalarType dtype)
    : aux_(torch::zeros({}, torch::dtype(dtype))), z_(torch::zeros({}, torch::dtype(dtype))) {}

at::Tensor MoeLosses::add(layer::MoeOutput out) {
  // l_aux is in the routing dtype (float32 with fp32_gate, else the model's): bring it to ours.
  if (out.mean_prob.defined()) {
    // transformers' load_balancing_loss_func: means over every layer's tokens, then the product.
    const auto share = out.choice_share.to(aux_.scalar_type());
    const auto prob = out.mean_prob.to(aux_.scalar_type());
    share_sum_ = share_sum_.defined() ? share_sum_ + share : share;
    prob_sum_ = prob_sum_.defined() ? prob_sum_ + prob : prob;
    ++balance_layers_;
  } else {
    aux_ = aux_ + out.l_aux.to(aux_.scalar_type());
  }
  z_ = z_ + out.z_loss.to(z_.scalar_type());
  load_.push_back(std::move(out.stats));
  return std::move(out.output);
}

void MoeLosses::fill(ModelOutput& out) && {
  if (balance_layers_ > 0) {
    const double n = static_cast<double>(balance_layers_);
    aux_ =
        aux_ + ((share_sum_ / n) * (prob_sum_ / n)).sum() * static_cast<double>(share_sum_.numel());
  }
  out.aux_loss = std::move(aux_);
  out.z_loss = std::move(z_);
  out.load = std::move(load_);
}

}  // namespace moe::model

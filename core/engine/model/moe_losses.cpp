#include "model/moe_losses.h"

#include <utility>

namespace moe::model {

MoeLosses::MoeLosses(at::ScalarType dtype)
    : aux_(torch::zeros({}, torch::dtype(dtype))), z_(torch::zeros({}, torch::dtype(dtype))) {}

at::Tensor MoeLosses::add(layer::MoeOutput out) {
  // l_aux is in the routing dtype (float32 with fp32_gate, else the model's): bring it to ours.
  aux_ = aux_ + out.l_aux.to(aux_.scalar_type());
  z_ = z_ + out.z_loss.to(z_.scalar_type());
  load_.push_back(std::move(out.stats));
  return std::move(out.output);
}

void MoeLosses::fill(ModelOutput& out) && {
  out.aux_loss = std::move(aux_);
  out.z_loss = std::move(z_);
  out.load = std::move(load_);
}

}  // namespace moe::model

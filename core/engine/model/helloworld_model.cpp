#include "model/helloworld_model.h"

#include <stdexcept>
#include <string>

#include "model/moe_losses.h"

namespace moe::model {

HelloworldModelImpl::HelloworldModelImpl(int64_t dim, const protocol::MoeConfig& moe) : dim_(dim) {
  moe_ = register_module("_moe_layer", layer::MoeLayer(dim, moe));
}

ModelOutput HelloworldModelImpl::forward(const data::Batch& batch) {
  const auto& x = batch.inputs;
  if (x.dim() != 3 || x.size(2) != dim_ || !x.is_floating_point()) {
    throw std::invalid_argument("helloworld model: expected float inputs [B, T, " +
                                std::to_string(dim_) + "], got " + c10::str(x.sizes()) + " " +
                                c10::toString(x.scalar_type()));
  }
  if (batch.targets.dim() != 1 || batch.targets.size(0) != x.size(0)) {
    throw std::invalid_argument("helloworld model: expected targets [" + std::to_string(x.size(0)) +
                                "], got " + c10::str(batch.targets.sizes()));
  }
  const auto loss_type = loss_dtype(dtype());
  MoeLosses losses(loss_type);
  auto y = losses.add(moe_->forward(x.to(dtype())));
  auto log_probs = at::log_softmax(y.sum(-1).to(loss_type), 1);  // [B, T]
  ModelOutput out;
  out.task_loss = at::nll_loss(log_probs, batch.targets);
  std::move(losses).fill(out);
  out.tokens = x.size(0) * x.size(1);
  return out;
}

}  // namespace moe::model

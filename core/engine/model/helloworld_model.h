#pragma once
// Tutel's examples/helloworld.py: one MoE layer over x [B, T, M] and
// loss = nll(log_softmax(moe(x).sum(-1), dim=1), target) (docs/PROTOCOL.md, "RunConfig"). The layer
// is registered as `_moe_layer` so parameter names match Tutel's state_dict.
#include <torch/torch.h>

#include "model/model.h"

namespace moe::model {

class HelloworldModelImpl : public ModelImpl {
 public:
  HelloworldModelImpl(int64_t dim, const protocol::MoeConfig& moe);
  // inputs [B, T, M] float, targets int64 [B] (class indices into T; all 0 in Tutel's example).
  ModelOutput forward(const data::Batch& batch) override;
  std::vector<layer::MoeLayer> moe_layers() const override { return {moe_}; }

 private:
  int64_t dim_;
  layer::MoeLayer moe_{nullptr};
};

}  // namespace moe::model

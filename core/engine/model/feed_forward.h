#pragma once
// The feed-forward sublayer of a block: a MoE layer in every moe.every-th block (docs/PROTOCOL.md,
// "RunConfig"), a dense FFN of the same shape (dim -> moe.hidden -> dim, same activation)
// elsewhere.
#include <torch/torch.h>

#include <cstdint>

#include "layer/experts.h"
#include "layer/moe_layer.h"
#include "model/moe_losses.h"
#include "protocol/run_config.h"

namespace moe::model {

// Block i holds a MoE layer when i % every == 0 (every = 1: all of them).
bool is_moe_block(int64_t index, int64_t every);

// fc2(act(fc1(x))), parameters `fc1.weight`, `fc1.bias`, `fc2.weight`, `fc2.bias`.
class DenseFfnImpl : public torch::nn::Module {
 public:
  DenseFfnImpl(int64_t dim, int64_t hidden, protocol::Activation act);
  at::Tensor forward(const at::Tensor& x);

 private:
  protocol::Activation act_;
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
};
TORCH_MODULE(DenseFfn);

at::Tensor apply_activation(const at::Tensor& x, protocol::Activation act);

// Not a module itself: it registers `moe` or `ffn` directly on the owning block, so parameter
// names read `blocks.3.moe.experts.batched_fc1_w` and `blocks.2.ffn.fc1.weight`.
class FeedForward {
 public:
  FeedForward(torch::nn::Module& owner, int64_t dim, const protocol::MoeConfig& config,
              bool use_moe);

  // x [..., dim] -> [..., dim]; a MoE layer reports its losses and load to `losses`.
  at::Tensor forward(const at::Tensor& x, MoeLosses& losses);

  // The MoE layer, or an empty holder for a dense FFN.
  const layer::MoeLayer& moe() const { return moe_; }

 private:
  layer::MoeLayer moe_{nullptr};
  DenseFfn ffn_{nullptr};
};

}  // namespace moe::model

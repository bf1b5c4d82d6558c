#pragma once
// One pre-norm decoder block: x + attn(ln1(x)), then x + ffn(ln2(x)) where the FFN is a MoE
// layer (`moe`) or a dense FFN (`ffn`), see feed_forward.h.
#include <torch/torch.h>

#include <cstdint>

#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/moe_losses.h"
#include "protocol/run_config.h"

namespace moe::model {

class TransformerBlockImpl : public torch::nn::Module {
 public:
  TransformerBlockImpl(int64_t dim, int64_t heads, const protocol::MoeConfig& moe, bool use_moe);
  // x [B, T, D] -> [B, T, D]
  at::Tensor forward(const at::Tensor& x, MoeLosses& losses);
  const layer::MoeLayer& moe() const { return ffn_.moe(); }

 private:
  // Declared in registration order (the initialiser list registers them).
  torch::nn::LayerNorm ln1_;
  CausalSelfAttention attn_;
  torch::nn::LayerNorm ln2_;
  FeedForward ffn_;
};
TORCH_MODULE(TransformerBlock);

}  // namespace moe::model

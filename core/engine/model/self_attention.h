#pragma once
// A decoder layer's causal self-attention (docs/MODELS.md), one class per model.attention:
// grouped-query attention (GqaAttention, gqa_attention.h) and DeepSeek's multi-head latent
// attention (MlaAttention, mla_attention.h). The block holds it as "self_attn".
#include <torch/torch.h>

#include <memory>

#include "model/kv_cache.h"
#include "model/rotary.h"
#include "protocol/run_config.h"

namespace moe::model {

class SelfAttentionImpl : public torch::nn::Module {
 public:
  // x [B, T, D] -> [B, T, D] at positions 0..T-1, or with a cache each row at its slot's
  // positions onwards (cache->rows), attending to the cached positions too (the cache grows by T);
  // `rotary` holds those positions' rows ([T, d], or [B, 1, T, d] for rows at their own
  // positions), with protocol::rotary_dim channels.
  virtual at::Tensor forward(const at::Tensor& x, const RotaryTables& rotary,
                             LayerCache* cache = nullptr) = 0;
};

// sliding: this layer attends over the last model.sliding_window positions only.
std::shared_ptr<SelfAttentionImpl> make_self_attention(const protocol::ModelConfig& model,
                                                       bool sliding);

// The projections' Linear, with or without a bias.
inline torch::nn::Linear projection(int64_t in, int64_t out, bool bias) {
  return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

}  // namespace moe::model

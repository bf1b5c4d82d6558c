#pragma once
// model.attention "mla": DeepSeek-V2/V3's multi-head latent attention (docs/MODELS.md). Queries
// come from x through a low-rank bottleneck (q_a_proj, q_a_layernorm, q_b_proj; a full q_proj
// when model.q_lora_rank is 0); keys and values from one latent per token (kv_a_proj_with_mqa's
// first kv_lora_rank channels, normed, expanded per head by kv_b_proj) plus one rotary key
// (its last qk_rope_dim channels) that all heads share. Each query/key head is qk_nope_dim
// channels without and qk_rope_dim with rotary embeddings; scores scale by 1/sqrt of their sum.
#include "model/causal_attention.h"
#include "model/rms_norm.h"
#include "model/self_attention.h"

namespace moe::model {

class MlaAttentionImpl : public SelfAttentionImpl {
 public:
  explicit MlaAttentionImpl(const protocol::ModelConfig& model);
  at::Tensor forward(const at::Tensor& x, const RotaryTables& rotary, LayerCache* cache) override;

 private:
  // [B, T, D] -> queries [B, H, T, nope + rope], before the rotary embeddings.
  at::Tensor queries(const at::Tensor& x);
  // Attention in the latent space (weight absorption): each head's no-rope query taken through
  // kv_b_proj's key half scores the cached latents themselves, and the weighted latents go
  // through its value half. The same as expanding every cached latent per head, and cheaper where
  // few queries meet many cached positions (decode): absorb() says where. q_nope [B, H, T, nope],
  // q_rot [B, H, T, rope], latent [B, L, R], k_rot [B, 1, L, rope] -> [B, H, T, v].
  at::Tensor latent_attention(const at::Tensor& q_nope, const at::Tensor& q_rot,
                              const at::Tensor& latent, const at::Tensor& k_rot,
                              const CausalOptions& options);
  bool absorb(int64_t queries, int64_t keys) const;

  int64_t heads_, q_lora_rank_, kv_lora_rank_, rope_dim_, nope_dim_, v_dim_;
  bool interleave_;
  double
      scale_;  // 1/sqrt(qk_nope_dim + qk_rope_dim), times YaRN's mscale² with rope_mscale_all_dim
  torch::nn::Linear q_proj_{nullptr}, q_a_proj_{nullptr}, q_b_proj_{nullptr};
  RmsNorm q_a_layernorm_{nullptr};
  torch::nn::Linear kv_a_proj_with_mqa_{nullptr}, kv_b_proj_{nullptr}, o_proj_{nullptr};
  RmsNorm kv_a_layernorm_{nullptr};
};

}  // namespace moe::model

#pragma once
// model.attention "gqa", the attention of Mixtral, Qwen and OLMoE (docs/MODELS.md): q/k/v/o
// projections
// (`q_proj` ... `o_proj`, biases on q, k, v with model.qkv_bias), grouped-query attention with
// model.kv_heads key/value heads, RMSNorm on queries and keys (model.qk_norm: per head as Qwen3,
// over all heads as OLMoE), rotary embeddings, scaled dot-product attention with 1/sqrt(head_dim).
#include <torch/torch.h>

#include "model/rms_norm.h"
#include "model/self_attention.h"

namespace moe::model {

class GqaAttentionImpl : public SelfAttentionImpl {
 public:
  explicit GqaAttentionImpl(const protocol::ModelConfig& model);
  at::Tensor forward(const at::Tensor& x, const RotaryTables& rotary) override;
  int64_t head_dim() const { return head_dim_; }

 private:
  int64_t heads_, kv_heads_, head_dim_;
  protocol::QkNorm qk_norm_;
  bool interleave_;
  torch::nn::Linear q_proj_{nullptr}, k_proj_{nullptr}, v_proj_{nullptr}, o_proj_{nullptr};
  RmsNorm q_norm_{nullptr}, k_norm_{nullptr};
};

}  // namespace moe::model

#pragma once
// model.attention "gqa", the attention of Mixtral, Qwen, OLMoE and GPT-OSS (docs/MODELS.md):
// q/k/v/o projections (`q_proj` ... `o_proj`; biases on q, k, v with model.qkv_bias, on o with
// model.o_bias), grouped-query attention with model.kv_heads key/value heads, RMSNorm on queries
// and keys (model.qk_norm: per head as Qwen3, over all heads as OLMoE), rotary embeddings, causal
// attention scaled by 1/sqrt(head_dim); GPT-OSS adds a learned sink logit per head to each softmax
// (`sinks`, model.attention_sinks) and sliding windows in some layers.
#include <torch/torch.h>

#include "model/rms_norm.h"
#include "model/self_attention.h"

namespace moe::model {

class GqaAttentionImpl : public SelfAttentionImpl {
 public:
  // window > 0: each query sees the last `window` positions only (itself included).
  GqaAttentionImpl(const protocol::ModelConfig& model, int64_t window);
  at::Tensor forward(const at::Tensor& x, const RotaryTables& rotary, LayerCache* cache) override;
  int64_t head_dim() const { return head_dim_; }

 private:
  int64_t heads_, kv_heads_, head_dim_;
  protocol::QkNorm qk_norm_;
  bool interleave_;
  int64_t window_;
  at::Tensor sinks_;  // [heads]: each head's sink logit (model.attention_sinks)
  torch::nn::Linear q_proj_{nullptr}, k_proj_{nullptr}, v_proj_{nullptr}, o_proj_{nullptr};
  RmsNorm q_norm_{nullptr}, k_norm_{nullptr};
};

}  // namespace moe::model

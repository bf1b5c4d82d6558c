#include "model/gqa_attention.h"

#include <cmath>

#include "model/causal_attention.h"
#include "protocol/decoder_layout.h"

namespace moe::model {

GqaAttentionImpl::GqaAttentionImpl(const protocol::ModelConfig& model, int64_t window)
    : heads_(model.heads),
      kv_heads_(protocol::attention_kv_heads(model)),
      head_dim_(protocol::attention_head_dim(model)),
      qk_norm_(model.qk_norm),
      interleave_(model.rope_interleave),
      window_(window) {
  const int64_t q_width = heads_ * head_dim_, kv_width = kv_heads_ * head_dim_;
  q_proj_ = register_module("q_proj", projection(model.dim, q_width, model.qkv_bias));
  k_proj_ = register_module("k_proj", projection(model.dim, kv_width, model.qkv_bias));
  v_proj_ = register_module("v_proj", projection(model.dim, kv_width, model.qkv_bias));
  o_proj_ = register_module("o_proj", projection(q_width, model.dim, model.o_bias));
  if (model.attention_sinks) sinks_ = register_parameter("sinks", torch::zeros({heads_}));
  if (qk_norm_ == protocol::QkNorm::Head) {
    q_norm_ = register_module("q_norm", RmsNorm(head_dim_, model.norm_eps));
    k_norm_ = register_module("k_norm", RmsNorm(head_dim_, model.norm_eps));
  } else if (qk_norm_ == protocol::QkNorm::Full) {
    q_norm_ = register_module("q_norm", RmsNorm(q_width, model.norm_eps));
    k_norm_ = register_module("k_norm", RmsNorm(kv_width, model.norm_eps));
  }
}

at::Tensor GqaAttentionImpl::forward(const at::Tensor& x, const RotaryTables& rotary,
                                     LayerCache* cache) {
  const int64_t b = x.size(0), t = x.size(1);
  auto q = q_proj_->forward(x), k = k_proj_->forward(x), v = v_proj_->forward(x);
  if (qk_norm_ == protocol::QkNorm::Full) {  // OLMoE: over the whole projection
    q = q_norm_->forward(q);
    k = k_norm_->forward(k);
  }
  q = q.view({b, t, heads_, head_dim_});
  k = k.view({b, t, kv_heads_, head_dim_});
  if (qk_norm_ == protocol::QkNorm::Head) {  // Qwen3: each head on its own
    q = q_norm_->forward(q);
    k = k_norm_->forward(k);
  }
  q = apply_rotary(q.transpose(1, 2), rotary, interleave_);  // [B, H, T, hd]
  k = apply_rotary(k.transpose(1, 2), rotary, interleave_);
  auto vh = v.view({b, t, kv_heads_, head_dim_}).transpose(1, 2);
  CausalOptions options;
  if (cache) {  // the cache holds the key/value heads before they are shared out
    auto held = cache->kv.append({k, vh}, 2, cache->rows);
    k = held.streams[0];
    vh = held.streams[1];
    set_cached_offsets(options, held);
  }
  options.scale = 1.0 / std::sqrt(static_cast<double>(head_dim_));
  options.window = window_;
  options.sinks = sinks_;
  const int64_t groups = heads_ / kv_heads_;  // query heads each key/value head serves
  at::Tensor y;
  if (groups > 1 && t == 1) {
    // One decode position: a key/value head's query heads are its queries ([B, kv, groups, hd]),
    // so the cache is read as it is instead of copied out per query head.
    options.single_position = true;
    y = causal_attention(q.reshape({b, kv_heads_, groups, head_dim_}), k, vh, options)
            .reshape({b, heads_, 1, head_dim_});
  } else {
    if (groups > 1) {
      k = k.repeat_interleave(groups, 1);
      vh = vh.repeat_interleave(groups, 1);
    }
    y = causal_attention(q, k, vh, options);
  }
  return o_proj_->forward(y.transpose(1, 2).reshape({b, t, heads_ * head_dim_}));
}

}  // namespace moe::model

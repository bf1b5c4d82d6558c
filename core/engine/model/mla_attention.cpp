#include "model/mla_attention.h"

#include <cmath>

#include "model/causal_attention.h"

namespace moe::model {

namespace {

// The reference builds its latent norms with RMSNorm's default epsilon, not rms_norm_eps.
constexpr double kLatentNormEps = 1e-6;

}  // namespace

MlaAttentionImpl::MlaAttentionImpl(const protocol::ModelConfig& model)
    : heads_(model.heads),
      q_lora_rank_(model.q_lora_rank),
      kv_lora_rank_(model.kv_lora_rank),
      rope_dim_(model.qk_rope_dim),
      nope_dim_(model.qk_nope_dim),
      v_dim_(model.v_head_dim),
      interleave_(model.rope_interleave),
      scale_(1.0 / std::sqrt(static_cast<double>(model.qk_nope_dim + model.qk_rope_dim))) {
  if (model.rope_scaling == protocol::RopeScaling::Yarn && model.rope_mscale_all_dim > 0) {
    // DeepSeek scales every query/key dimension, not only the rotary ones, by YaRN's mscale.
    const double m = yarn_mscale(model.rope_factor, model.rope_mscale_all_dim);
    scale_ *= m * m;
  }
  const int64_t q_width = heads_ * (nope_dim_ + rope_dim_);
  if (q_lora_rank_ > 0) {
    q_a_proj_ = register_module("q_a_proj", projection(model.dim, q_lora_rank_, false));
    q_a_layernorm_ = register_module("q_a_layernorm", RmsNorm(q_lora_rank_, kLatentNormEps));
    q_b_proj_ = register_module("q_b_proj", projection(q_lora_rank_, q_width, false));
  } else {
    q_proj_ = register_module("q_proj", projection(model.dim, q_width, false));
  }
  kv_a_proj_with_mqa_ = register_module("kv_a_proj_with_mqa",
                                        projection(model.dim, kv_lora_rank_ + rope_dim_, false));
  kv_a_layernorm_ = register_module("kv_a_layernorm", RmsNorm(kv_lora_rank_, kLatentNormEps));
  kv_b_proj_ =
      register_module("kv_b_proj", projection(kv_lora_rank_, heads_ * (nope_dim_ + v_dim_), false));
  o_proj_ = register_module("o_proj", projection(heads_ * v_dim_, model.dim, false));
}

at::Tensor MlaAttentionImpl::queries(const at::Tensor& x) {
  const auto q = q_lora_rank_ > 0
                     ? q_b_proj_->forward(q_a_layernorm_->forward(q_a_proj_->forward(x)))
                     : q_proj_->forward(x);
  return q.view({x.size(0), x.size(1), heads_, nope_dim_ + rope_dim_}).transpose(1, 2);
}

bool MlaAttentionImpl::absorb(int64_t queries, int64_t keys) const {
  const double heads = double(heads_), rank = double(kv_lora_rank_);
  const double expand = double(keys) * rank * heads * double(nope_dim_ + v_dim_);
  const double latent_scores = double(queries) * double(keys) * heads * (rank + rope_dim_) +
                               double(queries) * heads * rank * double(nope_dim_ + v_dim_);
  return latent_scores < expand;
}

at::Tensor MlaAttentionImpl::latent_attention(const at::Tensor& q_nope, const at::Tensor& q_rot,
                                              const at::Tensor& latent, const at::Tensor& k_rot,
                                              const CausalOptions& options) {
  // kv_b_proj's weight [H (nope + v), R] as each head's key half [H, nope, R] and value half.
  const auto w = kv_b_proj_->weight.view({heads_, nope_dim_ + v_dim_, kv_lora_rank_});
  const auto q_latent = at::matmul(q_nope, w.narrow(1, 0, nope_dim_));  // [B, H, T, R]
  const int64_t b = latent.size(0), tk = latent.size(1);
  const auto keys =
      at::cat({latent.unsqueeze(1), k_rot}, -1).expand({b, heads_, tk, kv_lora_rank_ + rope_dim_});
  const auto values = latent.unsqueeze(1).expand({b, heads_, tk, kv_lora_rank_});
  const auto context = causal_attention(at::cat({q_latent, q_rot}, -1), keys, values, options);
  return at::matmul(context, w.narrow(1, nope_dim_, v_dim_).transpose(1, 2));  // [B, H, T, v]
}

at::Tensor MlaAttentionImpl::forward(const at::Tensor& x, const RotaryTables& rotary,
                                     LayerCache* cache) {
  const int64_t b = x.size(0), t = x.size(1);
  const auto q = queries(x);
  const auto q_rot = apply_rotary(q.narrow(-1, nope_dim_, rope_dim_), rotary, interleave_);
  const auto compressed = kv_a_proj_with_mqa_->forward(x);  // [B, T, latent + rope]
  auto latent = kv_a_layernorm_->forward(compressed.narrow(-1, 0, kv_lora_rank_));
  auto k_rot =
      apply_rotary(compressed.narrow(-1, kv_lora_rank_, rope_dim_).view({b, 1, t, rope_dim_}),
                   rotary, interleave_);
  CausalOptions options;
  options.scale = scale_;
  if (cache) {  // the compressed cache: the normed latent and the shared rotary key per position
    auto held =
        cache->kv.append({latent.unsqueeze(1), k_rot}, 2, cache->rows);  // positions along dim 2
    latent = held.streams[0].squeeze(1);
    k_rot = held.streams[1];
    set_cached_offsets(options, held);
  }
  const int64_t tk = latent.size(1);
  at::Tensor y;  // [B, H, T, v]
  if (cache && absorb(t, tk)) {
    y = latent_attention(q.narrow(-1, 0, nope_dim_), q_rot, latent, k_rot, options);
  } else {
    const auto kv =
        kv_b_proj_->forward(latent).view({b, tk, heads_, nope_dim_ + v_dim_}).transpose(1, 2);
    const auto k =
        at::cat({kv.narrow(-1, 0, nope_dim_), k_rot.expand({b, heads_, tk, rope_dim_})}, -1);
    const auto v = kv.narrow(-1, nope_dim_, v_dim_);
    const auto queries_all = at::cat({q.narrow(-1, 0, nope_dim_), q_rot}, -1);
    y = causal_attention(queries_all, k, v, options);
  }
  return o_proj_->forward(y.transpose(1, 2).reshape({b, t, heads_ * v_dim_}));
}

}  // namespace moe::model

#include "model/decoder_block.h"

#include <optional>

#include "model/gqa_attention.h"
#include "model/mla_attention.h"
#include "protocol/decoder_layout.h"
#include "trace/phase_timer.h"

namespace moe::model {

std::shared_ptr<SelfAttentionImpl> make_self_attention(const protocol::ModelConfig& model,
                                                       bool sliding) {
  if (model.attention == protocol::AttentionKind::Mla)
    return std::make_shared<MlaAttentionImpl>(model);
  return std::make_shared<GqaAttentionImpl>(model, sliding ? model.sliding_window : 0);
}

DecoderBlockImpl::DecoderBlockImpl(const protocol::RunConfig& config, bool use_moe, bool sliding) {
  const auto& m = config.model;
  input_layernorm_ = register_module("input_layernorm", RmsNorm(m.dim, m.norm_eps));
  self_attn_ = register_module("self_attn", make_self_attention(m, sliding));
  post_attention_layernorm_ =
      register_module("post_attention_layernorm", RmsNorm(m.dim, m.norm_eps));
  const auto act = config.moe.activation;
  if (!use_moe) {
    mlp_ = register_module("mlp", GluMlp(m.dim, protocol::dense_mlp_hidden(config), act));
    return;
  }
  moe_ = register_module("moe", layer::MoeLayer(m.dim, config.moe));
  if (config.moe.shared_hidden > 0) {
    shared_expert_ = register_module("shared_expert", GluMlp(m.dim, config.moe.shared_hidden, act));
    if (config.moe.shared_gate) {
      shared_expert_gate_ = register_module(
          "shared_expert_gate", torch::nn::Linear(torch::nn::LinearOptions(m.dim, 1).bias(false)));
    }
  }
}

at::Tensor DecoderBlockImpl::feed_forward(const at::Tensor& x, MoeLosses& losses) {
  if (mlp_) return mlp_->forward(x);
  auto y = losses.add(moe_->forward(x));
  if (shared_expert_) {
    auto shared = shared_expert_->forward(x);
    if (shared_expert_gate_) shared = at::sigmoid(shared_expert_gate_->forward(x)) * shared;
    y = y + shared;
  }
  return y;
}

at::Tensor DecoderBlockImpl::forward(const at::Tensor& x, const RotaryTables& rotary,
                                     MoeLosses& losses, LayerCache* cache) {
  std::optional<trace::ScopedPhase> phase;
  if (cache) phase.emplace("attention");  // generation times attention as a phase of its own
  const auto h = x + self_attn_->forward(input_layernorm_->forward(x), rotary, cache);
  phase.reset();
  return h + feed_forward(post_attention_layernorm_->forward(h), losses);
}

}  // namespace moe::model

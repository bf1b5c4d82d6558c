#pragma once
// One decoder layer of the Hugging Face MoE families (docs/MODELS.md):
//   h = x + self_attn(input_layernorm(x))
//   y = h + mlp(post_attention_layernorm(h))
// where mlp is a MoE layer (`moe`, plus a shared expert `shared_expert` and its sigmoid gate
// `shared_expert_gate` when moe.shared_hidden > 0) or a dense gated MLP (`mlp`) in
// model.dense_layers.
#include <torch/torch.h>

#include "layer/moe_layer.h"
#include "model/glu_mlp.h"
#include "model/moe_losses.h"
#include "model/rms_norm.h"
#include "model/self_attention.h"
#include "protocol/run_config.h"

namespace moe::model {

class DecoderBlockImpl : public torch::nn::Module {
 public:
  // sliding: its attention slides over model.sliding_window positions.
  DecoderBlockImpl(const protocol::RunConfig& config, bool use_moe, bool sliding);
  // `cache` (optional): this layer's KV cache, x's positions following the cached ones.
  at::Tensor forward(const at::Tensor& x, const RotaryTables& rotary, MoeLosses& losses,
                     LayerCache* cache = nullptr);
  // The MoE layer, or an empty holder in a dense layer.
  const layer::MoeLayer& moe() const { return moe_; }

 private:
  at::Tensor feed_forward(const at::Tensor& x, MoeLosses& losses);

  RmsNorm input_layernorm_{nullptr};
  std::shared_ptr<SelfAttentionImpl> self_attn_;
  RmsNorm post_attention_layernorm_{nullptr};
  layer::MoeLayer moe_{nullptr};
  GluMlp shared_expert_{nullptr};
  torch::nn::Linear shared_expert_gate_{nullptr};
  GluMlp mlp_{nullptr};
};
TORCH_MODULE(DecoderBlock);

}  // namespace moe::model

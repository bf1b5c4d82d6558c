#pragma once
// The decoder of the Hugging Face MoE families (model.kind "decoder"; docs/MODELS.md): token
// embedding `embed_tokens`, decoder layers `layers.<i>` (decoder_block.h), a final RMSNorm `norm`
// and an output head `lm_head` (or the embedding's weight with model.tie_embeddings). Positions
// come from rotary embeddings, so any sequence length runs; training uses model.seq_len.
#include <torch/torch.h>

#include <functional>

#include "model/decoder_block.h"
#include "model/model.h"

namespace moe::model {

class DecoderModelImpl : public ModelImpl {
 public:
  explicit DecoderModelImpl(const protocol::RunConfig& config);
  // inputs, targets int64 [B, T]; task loss = mean next-token cross-entropy over B*T.
  ModelOutput forward(const data::Batch& batch) override;
  std::vector<layer::MoeLayer> moe_layers() const override;
  // The MoE layers with their decoder-layer index (dense layers left out).
  std::vector<std::pair<int64_t, layer::MoeLayer>> moe_blocks() const;

  // Next-token logits [B, T, vocab] in the model dtype; `losses` (if given) gets the MoE layers'.
  // With a cache (generation): row i continues slot cache->rows.slots[i] at its own length,
  // attending to its cached positions too; each of those slots grows by T.
  at::Tensor logits(const at::Tensor& tokens, MoeLosses* losses = nullptr,
                    DecoderCache* cache = nullptr);
  // An empty cache for `slots` sequences of up to `capacity` positions of this model's layers.
  DecoderCache make_cache(int64_t capacity, int64_t slots = 1) const;

  // Called in each forward pass with every MoE layer's decoder-layer index and its router logits
  // [B*T, E] (the gate's, before noise), while set; an empty function removes it.
  void set_router_observer(std::function<void(int64_t layer, const at::Tensor& logits)> observer);

 private:
  protocol::ModelConfig config_;
  torch::nn::Embedding embed_tokens_{nullptr};
  torch::nn::ModuleList layers_{nullptr};
  std::vector<DecoderBlock> blocks_;
  RmsNorm norm_{nullptr};
  torch::nn::Linear lm_head_{nullptr};  // untied only
};

}  // namespace moe::model

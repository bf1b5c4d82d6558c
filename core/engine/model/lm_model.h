#pragma once
// Byte-level decoder-only transformer (docs/PROTOCOL.md, "RunConfig" `lm`): token and learned
// positional embeddings, pre-norm blocks with causal attention and MoE / dense FFNs, a final
// LayerNorm and an output head tied to the token embedding (model.tie_embeddings) or its own `head`
// Linear.
#include <torch/torch.h>

#include "model/model.h"
#include "model/moe_losses.h"
#include "model/transformer_block.h"

namespace moe::model {

class LmModelImpl : public ModelImpl {
 public:
  LmModelImpl(const protocol::ModelConfig& model, const protocol::MoeConfig& moe);
  // inputs, targets int64 [B, T] with T <= seq_len; task loss = mean cross-entropy over B*T.
  ModelOutput forward(const data::Batch& batch) override;
  std::vector<layer::MoeLayer> moe_layers() const override;

  // Next-token logits [B, T, vocab] in the model dtype; `losses` (if given) gets the MoE layers'.
  at::Tensor logits(const at::Tensor& tokens, MoeLosses* losses = nullptr);

 private:
  protocol::ModelConfig config_;
  torch::nn::Embedding tok_emb_{nullptr};
  at::Tensor pos_emb_;  // [seq_len, dim]
  torch::nn::ModuleList blocks_{nullptr};
  std::vector<TransformerBlock> block_list_;
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::Linear head_{nullptr};  // untied only
};

}  // namespace moe::model

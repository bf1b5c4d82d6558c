#include "model/lm_model.h"

#include <stdexcept>
#include <string>

#include "model/feed_forward.h"

namespace moe::model {

namespace {
// GPT-2's embedding scale: N(0, 1) (nn.Embedding's default) makes a tied head's first logits
// huge, and the first steps then only undo that.
constexpr double kEmbeddingStd = 0.02;
}  // namespace

LmModelImpl::LmModelImpl(const protocol::ModelConfig& model, const protocol::MoeConfig& moe)
    : config_(model) {
  const int64_t dim = model.dim;
  tok_emb_ = register_module("tok_emb", torch::nn::Embedding(model.vocab, dim));
  torch::nn::init::normal_(tok_emb_->weight, 0.0, kEmbeddingStd);
  pos_emb_ = register_parameter("pos_emb", torch::randn({model.seq_len, dim}) * kEmbeddingStd);
  blocks_ = register_module("blocks", torch::nn::ModuleList());
  for (int64_t i = 0; i < model.layers; ++i) {
    block_list_.emplace_back(dim, model.heads, moe, is_moe_block(i, moe.every));
    blocks_->push_back(block_list_.back());
  }
  norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
  if (!model.tie_embeddings) {
    head_ = register_module(
        "head", torch::nn::Linear(torch::nn::LinearOptions(dim, model.vocab).bias(false)));
  }
}

std::vector<layer::MoeLayer> LmModelImpl::moe_layers() const {
  std::vector<layer::MoeLayer> layers;
  for (const auto& block : block_list_) {
    if (block->moe()) layers.push_back(block->moe());
  }
  return layers;
}

at::Tensor LmModelImpl::logits(const at::Tensor& tokens, MoeLosses* losses) {
  if (tokens.dim() != 2 || tokens.scalar_type() != at::kLong || tokens.size(1) < 1 ||
      tokens.size(1) > config_.seq_len) {
    throw std::invalid_argument("lm model: expected int64 token ids [B, T] with 1 <= T <= " +
                                std::to_string(config_.seq_len) + " (model.seq_len), got " +
                                c10::str(tokens.sizes()) + " " +
                                c10::toString(tokens.scalar_type()));
  }
  const int64_t t = tokens.size(1);
  MoeLosses scratch(loss_dtype(dtype()));
  MoeLosses& sink = losses ? *losses : scratch;
  auto x = tok_emb_->forward(tokens) + pos_emb_.slice(0, 0, t);
  for (auto& block : block_list_) x = block->forward(x, sink);
  x = norm_->forward(x);
  return head_ ? head_->forward(x) : torch::nn::functional::linear(x, tok_emb_->weight);
}

ModelOutput LmModelImpl::forward(const data::Batch& batch) {
  const auto& tokens = batch.inputs;
  if (!batch.targets.defined() || batch.targets.sizes() != tokens.sizes()) {
    throw std::invalid_argument(
        "lm model: targets must have the shape of the inputs " + c10::str(tokens.sizes()) +
        ", got " +
        (batch.targets.defined() ? c10::str(batch.targets.sizes()) : std::string("none")));
  }
  const auto loss_type = loss_dtype(dtype());
  MoeLosses losses(loss_type);
  auto z = logits(tokens, &losses);
  ModelOutput out;
  // Cross-entropy in float32 for bfloat16 models: log-softmax over 256+ classes needs it.
  out.task_loss = at::cross_entropy_loss(z.reshape({-1, z.size(-1)}).to(loss_type),
                                         batch.targets.reshape({-1}));
  std::move(losses).fill(out);
  out.tokens = tokens.numel();
  return out;
}

}  // namespace moe::model

#include "model/decoder_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "protocol/decoder_layout.h"

namespace moe::model {

namespace {

// The families' initializer_range: every matrix N(0, 0.02), norms at one (as their reference
// initialises a model trained from scratch).
constexpr double kInitStd = 0.02;

void init_weights(torch::nn::Module& model) {
  at::NoGradGuard no_grad;
  for (auto& p : model.named_parameters()) {
    const std::string& name = p.key();
    const bool norm = name.find("norm.") != std::string::npos;
    if (norm) continue;
    if (p.value().dim() >= 2) {
      p.value().normal_(0.0, kInitStd);
    } else {
      p.value().zero_();  // biases
    }
  }
}

}  // namespace

DecoderModelImpl::DecoderModelImpl(const protocol::RunConfig& config) : config_(config.model) {
  const auto& m = config.model;
  auto embedding = torch::nn::EmbeddingOptions(m.vocab, m.dim);
  if (m.pad_token >= 0) embedding.padding_idx(m.pad_token);
  embed_tokens_ = register_module("embed_tokens", torch::nn::Embedding(embedding));
  layers_ = register_module("layers", torch::nn::ModuleList());
  const std::vector<bool> moe_mask = protocol::moe_layer_mask(config);
  const std::vector<bool> sliding = protocol::sliding_layer_mask(m);
  for (int64_t i = 0; i < m.layers; ++i) {
    blocks_.emplace_back(config, moe_mask[static_cast<size_t>(i)], sliding[static_cast<size_t>(i)]);
    layers_->push_back(blocks_.back());
  }
  norm_ = register_module("norm", RmsNorm(m.dim, m.norm_eps));
  if (!m.tie_embeddings) {
    lm_head_ = register_module(
        "lm_head", torch::nn::Linear(torch::nn::LinearOptions(m.dim, m.vocab).bias(false)));
  }
  init_weights(*this);
  if (m.pad_token >= 0) {
    at::NoGradGuard no_grad;
    embed_tokens_->weight[m.pad_token].zero_();
  }
}

std::vector<layer::MoeLayer> DecoderModelImpl::moe_layers() const {
  std::vector<layer::MoeLayer> layers;
  for (const auto& block : blocks_) {
    if (block->moe()) layers.push_back(block->moe());
  }
  return layers;
}

std::vector<std::pair<int64_t, layer::MoeLayer>> DecoderModelImpl::moe_blocks() const {
  std::vector<std::pair<int64_t, layer::MoeLayer>> out;
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i]->moe()) out.emplace_back(static_cast<int64_t>(i), blocks_[i]->moe());
  }
  return out;
}

void DecoderModelImpl::set_router_observer(
    std::function<void(int64_t layer, const at::Tensor& logits)> observer) {
  for (auto& [index, moe] : moe_blocks()) {
    if (!observer) {
      moe->set_input_observer({});
      continue;
    }
    layer::MoeLayerImpl* raw = moe.get();
    moe->set_input_observer([observer, index, raw](const at::Tensor& x) {
      const auto tokens = x.reshape({-1, x.size(-1)});
      observer(index, raw->gate().logits(tokens.to(raw->gate().parameters().front().dtype())));
    });
  }
}

DecoderCache DecoderModelImpl::make_cache(int64_t capacity, int64_t slots) const {
  return DecoderCache(static_cast<int64_t>(blocks_.size()), capacity, slots);
}

at::Tensor DecoderModelImpl::logits(const at::Tensor& tokens, MoeLosses* losses,
                                    DecoderCache* cache) {
  if (tokens.dim() != 2 || tokens.scalar_type() != at::kLong || tokens.size(1) < 1) {
    throw std::invalid_argument("decoder model: expected int64 token ids [B, T] with T >= 1, got " +
                                c10::str(tokens.sizes()) + " " +
                                c10::toString(tokens.scalar_type()));
  }
  MoeLosses scratch(loss_dtype(dtype()));
  MoeLosses& sink = losses ? *losses : scratch;
  auto x = embed_tokens_->forward(tokens);
  const int64_t t = tokens.size(1);
  if (!cache) {
    const auto rotary =
        rotary_tables(t, protocol::rotary_dim(config_), config_, x.scalar_type(), x.device());
    for (auto& block : blocks_) x = block->forward(x, rotary, sink);
  } else {
    if (!cache->rotary.cos.defined()) {  // every position's rows, computed once
      cache->rotary = rotary_tables(cache->capacity, protocol::rotary_dim(config_), config_,
                                    x.scalar_type(), x.device());
    }
    cache->begin_pass(x.device());
    const auto& rows = cache->rows;
    if (tokens.size(0) != static_cast<int64_t>(rows.slots.size())) {
      throw std::invalid_argument("decoder model: " + std::to_string(tokens.size(0)) +
                                  " rows for a cache pass over " +
                                  std::to_string(rows.slots.size()) + " slots");
    }
    const int64_t end = *std::max_element(rows.starts.begin(), rows.starts.end()) + t;
    if (end > cache->capacity) {
      throw std::length_error("decoder model: " + std::to_string(end) +
                              " positions exceed the KV cache's " +
                              std::to_string(cache->capacity));
    }
    RotaryTables rotary;
    if (rows.ragged()) {  // each row's own positions: [B, 1, T, d]
      const auto positions =
          (rows.start_positions.unsqueeze(1) + at::arange(t, rows.start_positions.options()))
              .reshape({-1});
      const auto pick = [&](const at::Tensor& table) {
        return table.index_select(0, positions).view({tokens.size(0), 1, t, table.size(-1)});
      };
      rotary = {pick(cache->rotary.cos), pick(cache->rotary.sin)};
    } else {
      const int64_t start = rows.starts.front();
      rotary = {cache->rotary.cos.narrow(0, start, t), cache->rotary.sin.narrow(0, start, t)};
    }
    for (size_t i = 0; i < blocks_.size(); ++i) {
      LayerCache layer_cache{cache->layers[i], rows};
      x = blocks_[i]->forward(x, rotary, sink, &layer_cache);
    }
  }
  x = norm_->forward(x);
  return lm_head_ ? lm_head_->forward(x) : torch::nn::functional::linear(x, embed_tokens_->weight);
}

ModelOutput DecoderModelImpl::forward(const data::Batch& batch) {
  const auto& tokens = batch.inputs;
  if (!batch.targets.defined() || batch.targets.sizes() != tokens.sizes()) {
    throw std::invalid_argument(
        "decoder model: targets must have the shape of the inputs " + c10::str(tokens.sizes()) +
        ", got " +
        (batch.targets.defined() ? c10::str(batch.targets.sizes()) : std::string("none")));
  }
  const auto loss_type = loss_dtype(dtype());
  MoeLosses losses(loss_type);
  auto z = logits(tokens, &losses);
  ModelOutput out;
  out.task_loss = at::cross_entropy_loss(z.reshape({-1, z.size(-1)}).to(loss_type),
                                         batch.targets.reshape({-1}));
  std::move(losses).fill(out);
  out.tokens = tokens.numel();
  return out;
}

}  // namespace moe::model

#include "model/image_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace moe::model {

namespace {
constexpr double kPosEmbStd = 0.02;

torch::nn::LayerNorm layer_norm(int64_t dim) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}));
}
}  // namespace

ImageShape image_shape_for(protocol::DataKind data_kind) {
  if (data_kind == protocol::DataKind::Cifar10) return {3, 32};
  return {1, 28};
}

ImageBlockImpl::ImageBlockImpl(int64_t dim, const protocol::MoeConfig& moe, bool use_moe)
    : norm_(register_module("norm", layer_norm(dim))), ffn_(*this, dim, moe, use_moe) {}

at::Tensor ImageBlockImpl::forward(const at::Tensor& x, MoeLosses& losses) {
  return x + ffn_.forward(norm_->forward(x), losses);
}

ImageModelImpl::ImageModelImpl(const protocol::ModelConfig& model, const protocol::MoeConfig& moe,
                               ImageShape shape)
    : shape_(shape), dim_(model.dim), grid_(shape.size / kPatch), act_(moe.activation) {
  // A 3x3 conv gives each 4x4 patch its edges and neighbourhood before the strided patch conv
  // makes tokens; half the token width is plenty there and keeps the stem cheap.
  const int64_t stem = std::max<int64_t>(dim_ / 2, 8);
  conv_ = register_module(
      "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(shape.channels, stem, 3).padding(1)));
  patch_ = register_module(
      "patch", torch::nn::Conv2d(torch::nn::Conv2dOptions(stem, dim_, kPatch).stride(kPatch)));
  pos_emb_ = register_parameter("pos_emb", torch::randn({grid_ * grid_, dim_}) * kPosEmbStd);
  blocks_ = register_module("blocks", torch::nn::ModuleList());
  for (int64_t i = 0; i < model.layers; ++i) {
    block_list_.emplace_back(dim_, moe, is_moe_block(i, moe.every));
    blocks_->push_back(block_list_.back());
  }
  norm_ = register_module("norm", layer_norm(dim_));
  head_ = register_module("head", torch::nn::Linear(grid_ * grid_ * dim_, kClasses));
}

std::vector<layer::MoeLayer> ImageModelImpl::moe_layers() const {
  std::vector<layer::MoeLayer> layers;
  for (const auto& block : block_list_) {
    if (block->moe()) layers.push_back(block->moe());
  }
  return layers;
}

at::Tensor ImageModelImpl::logits(const at::Tensor& images, MoeLosses* losses) {
  const auto& x = images;
  if (x.dim() != 4 || x.size(1) != shape_.channels || x.size(2) != shape_.size ||
      x.size(3) != shape_.size || !x.is_floating_point()) {
    const auto c = std::to_string(shape_.channels), s = std::to_string(shape_.size);
    throw std::invalid_argument("image model: expected float images [B, " + c + ", " + s + ", " +
                                s + "], got " + c10::str(x.sizes()) + " " +
                                c10::toString(x.scalar_type()));
  }
  MoeLosses scratch(loss_dtype(dtype()));
  MoeLosses& sink = losses ? *losses : scratch;
  auto h = patch_->forward(apply_activation(conv_->forward(x.to(dtype())), act_));
  h = h.flatten(2).transpose(1, 2) + pos_emb_;  // [B, grid^2, dim]
  for (auto& block : block_list_) h = block->forward(h, sink);
  return head_->forward(norm_->forward(h).flatten(1));
}

ModelOutput ImageModelImpl::forward(const data::Batch& batch) {
  const int64_t b = batch.size();
  if (!batch.targets.defined() || batch.targets.dim() != 1 || batch.targets.size(0) != b) {
    throw std::invalid_argument(
        "image model: expected targets [" + std::to_string(b) + "], got " +
        (batch.targets.defined() ? c10::str(batch.targets.sizes()) : std::string("none")));
  }
  const auto loss_type = loss_dtype(dtype());
  MoeLosses losses(loss_type);
  auto z = logits(batch.inputs, &losses).to(loss_type);
  ModelOutput out;
  out.task_loss = at::cross_entropy_loss(z, batch.targets);
  std::move(losses).fill(out);
  out.tokens = b * grid_ * grid_;
  out.correct = z.detach().argmax(1).eq(batch.targets).sum();  // read by the evaluation, once
  return out;
}

}  // namespace moe::model

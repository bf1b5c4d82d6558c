#pragma once
// Image classifier (docs/PROTOCOL.md, "RunConfig" `image`) for 1x28x28 (idx, synthetic) or 3x32x32
// (cifar10) images: a conv stem turns the image into a grid of tokens of width model.dim (7x7 or
// 8x8), a learned positional embedding is added, model.layers pre-norm residual blocks x +
// ffn(norm(x)) follow (MoE or dense, by moe.every), then LayerNorm, the flattened token grid and a
// Linear to 10 classes. Flattening keeps where each feature was, which the token-wise blocks cannot
// mix.
#include <torch/torch.h>

#include "model/feed_forward.h"
#include "model/model.h"
#include "model/moe_losses.h"

namespace moe::model {

struct ImageShape {
  int64_t channels = 1, size = 28;
};
// cifar10 -> 3x32x32, anything else (idx, synthetic) -> 1x28x28.
ImageShape image_shape_for(protocol::DataKind data_kind);

// x + ffn(norm(x)), the FFN being `moe` or `ffn`.
class ImageBlockImpl : public torch::nn::Module {
 public:
  ImageBlockImpl(int64_t dim, const protocol::MoeConfig& moe, bool use_moe);
  at::Tensor forward(const at::Tensor& x, MoeLosses& losses);
  const layer::MoeLayer& moe() const { return ffn_.moe(); }

 private:
  torch::nn::LayerNorm norm_;
  FeedForward ffn_;
};
TORCH_MODULE(ImageBlock);

class ImageModelImpl : public ModelImpl {
 public:
  static constexpr int64_t kClasses = 10;
  static constexpr int64_t kPatch = 4;  // stem stride: 28 -> 7x7 tokens, 32 -> 8x8

  ImageModelImpl(const protocol::ModelConfig& model, const protocol::MoeConfig& moe,
                 ImageShape shape);
  // inputs float [B, C, H, W], targets int64 [B]; sets correct.
  ModelOutput forward(const data::Batch& batch) override;
  std::vector<layer::MoeLayer> moe_layers() const override;

  // Class logits [B, 10] in the model dtype.
  at::Tensor logits(const at::Tensor& images, MoeLosses* losses = nullptr);
  int64_t grid() const { return grid_; }

 private:
  ImageShape shape_;
  int64_t dim_, grid_;
  protocol::Activation act_;
  torch::nn::Conv2d conv_{nullptr}, patch_{nullptr};
  at::Tensor pos_emb_;  // [grid * grid, dim]
  torch::nn::ModuleList blocks_{nullptr};
  std::vector<ImageBlock> block_list_;
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::Linear head_{nullptr};
};

}  // namespace moe::model

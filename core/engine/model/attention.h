#pragma once
// Causal multi-head self-attention written with matmul and softmax (LibTorch 1.13 has no
// scaled_dot_product_attention). Parameters `qkv.weight/bias` [3D, D] and `proj.weight/bias`.
#include <torch/torch.h>

#include <cstdint>

namespace moe::model {

class CausalSelfAttentionImpl : public torch::nn::Module {
 public:
  CausalSelfAttentionImpl(int64_t dim, int64_t heads);
  // x [B, T, D] -> [B, T, D]; position t attends to positions <= t only.
  at::Tensor forward(const at::Tensor& x);

 private:
  int64_t dim_, heads_;
  torch::nn::Linear qkv_{nullptr}, proj_{nullptr};
};
TORCH_MODULE(CausalSelfAttention);

}  // namespace moe::model

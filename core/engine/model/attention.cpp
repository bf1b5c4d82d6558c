#include "model/attention.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace moe::model {

CausalSelfAttentionImpl::CausalSelfAttentionImpl(int64_t dim, int64_t heads)
    : dim_(dim), heads_(heads) {
  if (heads < 1 || dim % heads != 0) {
    throw std::invalid_argument("attention: model.heads (" + std::to_string(heads) +
                                ") must divide model.dim (" + std::to_string(dim) + ")");
  }
  qkv_ = register_module("qkv", torch::nn::Linear(dim, 3 * dim));
  proj_ = register_module("proj", torch::nn::Linear(dim, dim));
}

at::Tensor CausalSelfAttentionImpl::forward(const at::Tensor& x) {
  const int64_t b = x.size(0), t = x.size(1), head_dim = dim_ / heads_;
  // [B, T, 3, H, Dh] -> [3, B, H, T, Dh]
  auto qkv = qkv_->forward(x).view({b, t, 3, heads_, head_dim}).permute({2, 0, 3, 1, 4});
  auto q = qkv[0], k = qkv[1], v = qkv[2];
  auto scores = at::matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(double(head_dim)));
  // On the scores' device: a host mask fails on a GPU.
  auto future = torch::ones({t, t}, torch::dtype(torch::kBool).device(scores.device())).triu(1);
  scores = scores.masked_fill(future, -std::numeric_limits<double>::infinity());
  // Softmax in float32 at least: bfloat16 rows of up to seq_len scores lose too much.
  const auto dtype = x.scalar_type();
  const auto softmax_dtype = dtype == at::kDouble ? at::kDouble : at::kFloat;
  auto probs = at::softmax(scores, -1, softmax_dtype).to(dtype);
  auto y = at::matmul(probs, v).transpose(1, 2).reshape({b, t, dim_});
  return proj_->forward(y);
}

}  // namespace moe::model

#include "model/transformer_block.h"

namespace moe::model {

namespace {
torch::nn::LayerNorm layer_norm(int64_t dim) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}));
}
}  // namespace

// Registration order fixes the parameter order: ln1, attn, ln2, then moe or ffn.
TransformerBlockImpl::TransformerBlockImpl(int64_t dim, int64_t heads,
                                           const protocol::MoeConfig& moe, bool use_moe)
    : ln1_(register_module("ln1", layer_norm(dim))),
      attn_(register_module("attn", CausalSelfAttention(dim, heads))),
      ln2_(register_module("ln2", layer_norm(dim))),
      ffn_(*this, dim, moe, use_moe) {}

at::Tensor TransformerBlockImpl::forward(const at::Tensor& x, MoeLosses& losses) {
  auto h = x + attn_->forward(ln1_->forward(x));
  return h + ffn_.forward(ln2_->forward(h), losses);
}

}  // namespace moe::model

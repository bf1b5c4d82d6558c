#pragma once
// Small helpers shared by the MoE layer tests.
#include <torch/torch.h>

#include "layer/moe_layer.h"

namespace moe::test {

inline protocol::MoeConfig small_moe(int64_t experts, int64_t top_k, int64_t hidden = 12) {
  protocol::MoeConfig c;
  c.experts = experts;
  c.top_k = top_k;
  c.hidden = hidden;
  c.cosine_proj_dim = 8;
  return c;
}

// A layer in `dtype` whose weights are drawn from a fixed seed.
inline layer::MoeLayer make_layer(int64_t dim, const protocol::MoeConfig& c, at::ScalarType dtype,
                                  uint64_t seed = 7) {
  torch::manual_seed(seed);
  layer::MoeLayer layer(dim, c);
  layer->to(dtype);
  layer->train();
  return layer;
}

// Tokens whose routing is skewed: every token leans toward the first experts, so most choices
// overflow capacity.
inline at::Tensor skewed_tokens(layer::MoeLayer& layer, int64_t n, int64_t dim,
                                at::ScalarType dtype) {
  auto x = torch::randn({n, dim}, at::TensorOptions().dtype(at::kDouble));
  auto params = layer->named_parameters();
  if (auto* wg = params.find("gates.0.wg.weight")) {
    auto w0 = wg->detach().to(at::kDouble)[0];
    x = x + 3.0 * w0 / w0.norm();
  }
  return x.to(dtype);
}

}  // namespace moe::test

#pragma once
// Rotary position embeddings (RoPE), frequencies theta^(-2i/d), no parameters. Channel i turns
// with channel i + d/2 (rotate_half, the Hugging Face layout) or, interleaved (DeepSeek), channel
// 2i with 2i + 1.
#include <torch/torch.h>

#include "protocol/run_config.h"

namespace moe::model {

struct RotaryTables {
  at::Tensor cos, sin;  // [T, head_dim] in the queries' dtype
};

// The tables for positions 0..length-1 of `dim` rotary channels, computed in float32 (float64
// for float64 models) as the reference does, on `device`: plain, or YaRN's (model.rope_scaling)
// interpolated frequencies with cos and sin times its attention factor.
RotaryTables rotary_tables(int64_t length, int64_t dim, const protocol::ModelConfig& model,
                           at::ScalarType dtype, const at::Device& device);

// YaRN's mscale, 0.1 · mscale · ln(factor) + 1 (1 for factor <= 1).
double yarn_mscale(double factor, double mscale);

// x [B, H, T, head_dim] rotated by position: x * cos + rotate_half(x) * sin. Interleaved, pair
// (x[2i], x[2i+1]) turns by angle i and the result lists the pairs' first channels, then their
// second ones (the reference's layout; attention scores do not depend on the order).
at::Tensor apply_rotary(const at::Tensor& x, const RotaryTables& tables, bool interleaved = false);

}  // namespace moe::model

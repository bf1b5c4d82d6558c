#pragma once
// Rotary position embeddings (RoPE) in the Hugging Face layout: a head's channels split in two
// halves that rotate together (rotate_half), frequencies theta^(-2i/d). No parameters.
#include <torch/torch.h>

namespace moe::model {

struct RotaryTables {
  at::Tensor cos, sin;  // [T, head_dim] in the queries' dtype
};

// The tables for positions 0..length-1, computed in float32 (float64 for float64 models) as the
// reference does, on `device`.
RotaryTables rotary_tables(int64_t length, int64_t head_dim, double theta, at::ScalarType dtype,
                           const at::Device& device);

// x [B, H, T, head_dim] rotated by position: x * cos + rotate_half(x) * sin.
at::Tensor apply_rotary(const at::Tensor& x, const RotaryTables& tables);

}  // namespace moe::model

#include "model/rotary.h"

namespace moe::model {

RotaryTables rotary_tables(int64_t length, int64_t head_dim, double theta, at::ScalarType dtype,
                           const at::Device& device) {
  const auto compute = dtype == at::kDouble ? at::kDouble : at::kFloat;
  const auto options = at::TensorOptions().dtype(compute).device(device);
  // inv_freq = 1 / theta^(2i / d), as the reference's float32 arange / d.
  const auto exponent = at::arange(0, head_dim, 2, options) / static_cast<double>(head_dim);
  const auto inv_freq = 1.0 / at::pow(theta, exponent);
  const auto positions = at::arange(length, options);
  const auto freqs = at::outer(positions, inv_freq);  // [T, d/2]
  const auto angles = at::cat({freqs, freqs}, -1);    // [T, d]
  return {angles.cos().to(dtype), angles.sin().to(dtype)};
}

at::Tensor apply_rotary(const at::Tensor& x, const RotaryTables& tables, bool interleaved) {
  const int64_t d = x.size(-1), half = d / 2;
  if (interleaved) {
    const auto cos = tables.cos.narrow(-1, 0, half), sin = tables.sin.narrow(-1, 0, half);
    const auto even = x.slice(-1, 0, d, 2), odd = x.slice(-1, 1, d, 2);
    return at::cat({even * cos - odd * sin, odd * cos + even * sin}, -1);
  }
  const auto rotated = at::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
  return x * tables.cos + rotated * tables.sin;
}

}  // namespace moe::model

#include "model/rotary.h"

#include <algorithm>
#include <cmath>

namespace moe::model {

double yarn_mscale(double factor, double mscale) {
  return factor <= 1 ? 1.0 : 0.1 * mscale * std::log(factor) + 1.0;
}

namespace {

// The dimension (of d) whose wavelength turns `rotations` times over the original context.
double correction_dim(double rotations, int64_t d, double theta, int64_t original) {
  return d * std::log(original / (rotations * 2 * M_PI)) / (2 * std::log(theta));
}

// YaRN's frequencies (arXiv:2309.00071, as transformers' _compute_yarn_parameters): the fast
// dimensions keep theirs (extrapolation), the slow ones are divided by the factor
// (interpolation), with a linear ramp between the beta_fast and beta_slow dimensions.
at::Tensor yarn_inv_freq(const at::Tensor& inv_freq, int64_t d, const protocol::ModelConfig& m) {
  double low = correction_dim(m.rope_beta_fast, d, m.rope_theta, m.rope_original_max);
  double high = correction_dim(m.rope_beta_slow, d, m.rope_theta, m.rope_original_max);
  if (m.rope_truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(d - 1));
  if (low == high) high += 0.001;  // the reference's guard against a zero-width ramp
  const auto ramp = ((at::arange(d / 2, inv_freq.options()) - low) / (high - low)).clamp(0.0, 1.0);
  const auto extrapolation = 1.0 - ramp;
  return inv_freq / m.rope_factor * (1.0 - extrapolation) + inv_freq * extrapolation;
}

}  // namespace

RotaryTables rotary_tables(int64_t length, int64_t dim, const protocol::ModelConfig& model,
                           at::ScalarType dtype, const at::Device& device) {
  const auto compute = dtype == at::kDouble ? at::kDouble : at::kFloat;
  const auto options = at::TensorOptions().dtype(compute).device(device);
  // inv_freq = 1 / theta^(2i / d), as the reference's float32 arange / d.
  const auto exponent = at::arange(0, dim, 2, options) / static_cast<double>(dim);
  auto inv_freq = 1.0 / at::pow(model.rope_theta, exponent);
  double attention_factor = 1.0;
  if (model.rope_scaling == protocol::RopeScaling::Yarn) {
    inv_freq = yarn_inv_freq(inv_freq, dim, model);
    attention_factor = model.rope_mscale > 0 && model.rope_mscale_all_dim > 0
                           ? yarn_mscale(model.rope_factor, model.rope_mscale) /
                                 yarn_mscale(model.rope_factor, model.rope_mscale_all_dim)
                           : yarn_mscale(model.rope_factor, 1.0);
  }
  const auto positions = at::arange(length, options);
  const auto freqs = at::outer(positions, inv_freq);  // [T, d/2]
  const auto angles = at::cat({freqs, freqs}, -1);    // [T, d]
  return {(angles.cos() * attention_factor).to(dtype), (angles.sin() * attention_factor).to(dtype)};
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

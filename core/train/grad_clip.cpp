#include "train/grad_clip.h"

#include <cmath>

namespace moe::train {

double clip_grad_norm(const std::vector<at::Tensor>& params, double max_norm) {
  at::NoGradGuard no_grad;
  double sum_sq = 0;
  for (const auto& p : params) {
    if (!p.grad().defined()) continue;
    const double n =
        at::linalg_vector_norm(p.grad(), 2, c10::nullopt, false, at::kDouble).item<double>();
    sum_sq += n * n;
  }
  const double norm = std::sqrt(sum_sq);
  if (max_norm > 0 && std::isfinite(norm) && norm > max_norm) {
    const double scale = max_norm / (norm + 1e-6);
    for (const auto& p : params) {
      if (p.grad().defined()) p.mutable_grad().mul_(scale);
    }
  }
  return norm;
}

}  // namespace moe::train

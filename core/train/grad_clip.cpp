#include "train/grad_clip.h"

#include <cmath>

namespace moe::train {

double squared_grad_norm(const std::vector<at::Tensor>& params) {
  at::NoGradGuard no_grad;
  double sum_sq = 0;
  for (const auto& p : params) {
    if (!p.grad().defined()) continue;
    const double n =
        at::linalg_vector_norm(p.grad(), 2, c10::nullopt, false, at::kDouble).item<double>();
    sum_sq += n * n;
  }
  return sum_sq;
}

void clip_grads_to(const std::vector<at::Tensor>& params, double norm, double max_norm) {
  if (max_norm <= 0 || !std::isfinite(norm) || norm <= max_norm) return;
  at::NoGradGuard no_grad;
  const double scale = max_norm / (norm + 1e-6);
  for (const auto& p : params) {
    if (p.grad().defined()) p.mutable_grad().mul_(scale);
  }
}

double clip_grad_norm(const std::vector<at::Tensor>& params, double max_norm) {
  const double norm = std::sqrt(squared_grad_norm(params));
  clip_grads_to(params, norm, max_norm);
  return norm;
}

}  // namespace moe::train

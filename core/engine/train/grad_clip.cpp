#include "train/grad_clip.h"

#include <cmath>

namespace moe::train {

at::Tensor squared_grad_norm(const std::vector<at::Tensor>& params) {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> squares;
  for (const auto& p : params) {
    if (!p.grad().defined()) continue;
    squares.push_back(
        at::linalg_vector_norm(p.grad(), 2, c10::nullopt, false, at::kDouble).square());
  }
  if (squares.empty()) return at::zeros({}, at::kDouble);
  // Summed where the gradients are: one read of the total, not one per parameter.
  return at::stack(squares).sum();
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
  const double norm = std::sqrt(squared_grad_norm(params).item<double>());
  clip_grads_to(params, norm, max_norm);
  return norm;
}

}  // namespace moe::train

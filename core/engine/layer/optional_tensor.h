#pragma once
// LibTorch 1.13's autograd Function::apply rejects undefined tensors, so optional inputs (unit
// gate weights, missing biases) travel through it as empty tensors and are turned back here.
#include <torch/torch.h>

namespace moe::layer {

inline at::Tensor empty_if_undefined(const at::Tensor& t, const at::Tensor& like) {
  return t.defined() ? t : at::empty({0}, like.options());
}

inline at::Tensor undefined_if_empty(const at::Tensor& t) {
  return t.numel() == 0 ? at::Tensor() : t;
}

}  // namespace moe::layer

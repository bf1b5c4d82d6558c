#pragma once
// Element-wise passes over [E, C, X] expert buffers, run on the kernels' worker pool in chunks
// of rows. Biases are [E, X]; an empty (numel 0) bias means none.
#include <torch/torch.h>

#include "layer/experts.h"

namespace moe::layer {

// z += bias (in place); out = act(z).
void bias_activation_rows(at::Tensor& z, const at::Tensor& bias, at::Tensor& out, Activation act);

// y += bias (in place).
void add_bias_rows(at::Tensor& y, const at::Tensor& bias);

// grad (the gradient of act(z)) becomes the gradient of z, in place.
void activation_backward_rows(at::Tensor& grad, const at::Tensor& z, Activation act);

// [E, C, X] -> [E, X]: the sum over the C rows of each expert.
at::Tensor sum_rows(const at::Tensor& t);

}  // namespace moe::layer

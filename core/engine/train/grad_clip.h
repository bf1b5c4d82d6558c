#pragma once
// The global gradient norm (over every parameter, as torch.nn.utils.clip_grad_norm_ computes it)
// and clipping to train.clip_grad_norm.
#include <torch/torch.h>

#include <vector>

namespace moe::train {

// L2 norm of all gradients together (float64 accumulation); NaN/inf when any gradient is.
// With max_norm > 0 and a larger norm, scales every gradient by max_norm / (norm + 1e-6).
// Returns the norm before clipping.
double clip_grad_norm(const std::vector<at::Tensor>& params, double max_norm);

// The parts of it: the sum of squared gradient norms (a 0-d float64 tensor on the gradients'
// device: reading it is the one host sync), and the clipping of a set of gradients whose norm
// together is `norm`.
at::Tensor squared_grad_norm(const std::vector<at::Tensor>& params);
void clip_grads_to(const std::vector<at::Tensor>& params, double norm, double max_norm);

}  // namespace moe::train

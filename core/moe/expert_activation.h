#pragma once
// The experts' hidden activation act(h + b1) as one autograd operation whose element-wise work
// runs on the kernels' worker pool. LibTorch's own element-wise ops would run on its intra-op
// pool, which is kept at one thread so that it does not fight OpenBLAS's threads in the GEMMs.
#include <torch/torch.h>

#include "moe/experts.h"

namespace moe {

// pre [E, C, H], bias [E, H] or undefined: returns act(pre + bias).
at::Tensor expert_activation(const at::Tensor& pre, const at::Tensor& bias, Activation act);

}  // namespace moe

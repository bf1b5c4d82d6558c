#pragma once
// The naive LibTorch baseline for the benchmark: GShard's dense formulation, with one-hot
// [N, E, C] dispatch and combine tensors and einsum, on the same gate and expert weights.
// Routing is the default kind (no batch priority, no bias); postscore and normalize_gate apply.
#include <torch/torch.h>

#include "moe/moe_layer.h"

namespace moe::train {

// x [N, M] -> [N, M]
at::Tensor naive_moe_forward(MoeLayerImpl& layer, const at::Tensor& x);

}  // namespace moe::train

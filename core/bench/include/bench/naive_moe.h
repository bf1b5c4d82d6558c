#pragma once
// The naive LibTorch baseline of the layer benchmark: GShard's dense einsum formulation, written
// with plain LibTorch ops and autograd and nothing of the engine but the layer's parameters
// (read by their names). Routing builds one-hot [N, E] expert masks per choice, positions by
// cumulative sums, its own capacity, and a dense combine-weights tensor [N, E, C] with its
// dispatch mask; dispatch, the experts and combine are einsums. Slow by design: it is what the
// engine's kernels are measured against.
// Routing is the default kind: no batch-prioritized routing, no selection bias, no gate noise.
#include <torch/torch.h>

#include "layer/moe_layer.h"

namespace moe::bench {

struct NaiveMoeOutput {
  at::Tensor output;     // [N, M], differentiable w.r.t. x and the layer's parameters
  int64_t capacity = 0;  // the baseline's own capacity
};

// x [N, M] -> [N, M]
NaiveMoeOutput naive_moe_forward(layer::MoeLayerImpl& layer, const at::Tensor& x);

}  // namespace moe::bench

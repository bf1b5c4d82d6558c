#pragma once
// A deliberately naive MoE layer, written from docs/ROUTING.md with dense one-hot masks and
// per-expert FFNs on every token, to check the real layer against. Slow by design.
#include <torch/torch.h>

#include "layer/moe_layer.h"

namespace moe::test {

struct NaiveResult {
  at::Tensor output;  // [N, M]
  at::Tensor l_aux;   // 0-d
  at::Tensor demand;  // [E] int64
  at::Tensor kept;    // [E] int64
  int64_t capacity = 0;
};

// Uses the layer's parameters (by their names in docs/ROUTING.md) but none of its code.
// Deterministic: the layer must be in eval mode or have gate_noise 0.
NaiveResult naive_moe(moe::layer::MoeLayerImpl& layer, const at::Tensor& x);

}  // namespace moe::test

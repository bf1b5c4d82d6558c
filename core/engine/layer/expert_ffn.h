#pragma once
// The batched expert FFN Y = act(D W1^T + b1) W2 + b2 as one autograd operation.
// Writing forward and backward by hand lets every GEMM produce its result in the layout the
// parameter needs (no transposed gradients copied by autograd afterwards) and runs the
// element-wise work (bias, activation, bias gradients) on the kernels' worker pool. LibTorch's
// element-wise ops would run on its intra-op pool, which may be kept at one thread so as not to
// fight OpenBLAS's threads in the GEMMs.
#include <torch/torch.h>

#include "layer/experts.h"

namespace moe::layer {

struct ExpertWeights {
  at::Tensor fc1_w;  // [E, H, M]
  at::Tensor fc1_b;  // [E, H] or undefined
  at::Tensor fc2_w;  // [E, H, M]
  at::Tensor fc2_b;  // [E, M] or undefined
};

// dispatched [E, C, M] -> [E, C, M], over the rows in use (expert_rows.h; undefined: all).
at::Tensor expert_ffn(const at::Tensor& dispatched, const ExpertWeights& w, Activation act,
                      const at::Tensor& rows = {});

// The two halves without autograd, for operations that schedule them themselves (the overlapped
// all-to-all runs them chunk by chunk).
struct ExpertFfnSaved {
  at::Tensor d, z, a;  // input, pre-activation, activation
  at::Tensor rows;     // the rows in use (expert_rows.h), undefined: all
};
at::Tensor expert_ffn_forward(const at::Tensor& d, const ExpertWeights& w, Activation act,
                              ExpertFfnSaved& saved, const at::Tensor& rows = {});
// Gradients of d (when want_input), of the two weight matrices (when want_weights) and of the
// biases that are there.
struct ExpertFfnGrads {
  at::Tensor d, fc1_w, fc1_b, fc2_w, fc2_b;
};
ExpertFfnGrads expert_ffn_backward(const at::Tensor& grad_y, const ExpertFfnSaved& saved,
                                   const ExpertWeights& w, Activation act, bool want_input,
                                   bool want_weights);

}  // namespace moe::layer

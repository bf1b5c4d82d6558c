// The engine's per-module costs that are not FLOPs: how many tensor operations a module makes and
// how many bytes its element-wise work moves (docs/PLANNER.md, "Counts"). Read off the engine's
// forward code (core/engine/layer, core/engine/model); each constant says which code it stands for.
// They set the fixed cost per operation and the memory-bound time, which dominate small layers.
#pragma once

#include <cstdint>

#include "protocol/run_config.h"

namespace moe::plan {

// Gate: logits, noise, softmax, top-k, the slot cumsum, aux and z losses
// (core/engine/layer/gate.cpp, routing_plan.cpp, aux_losses.cpp).
inline constexpr double kGateOps = 24;
inline constexpr double kGateScoreTensors = 6;  // [N, E] tensors written or read by routing
inline constexpr double kDispatchOps = 6;       // zero fill, gather of rows, scaling, scatter
inline constexpr double kCombineOps = 6;        // gather of slots, weighting, sum over k
// Experts: fc1 (batched GEMM + bias), activation, fc2 (GEMM + bias), reshapes.
inline constexpr double kExpertOps = 8;
inline constexpr double kExpertHiddenPasses = 4;  // [rows, H]: fc1 out, bias, activation in/out
// moe.expert_ffn "glu": gate and up (batched GEMMs + biases), activation, product, down (GEMM +
// bias), reshapes; [rows, H] passes: gate and up out, activation in/out, product in (2) / out.
inline constexpr double kGluExpertOps = 11;
inline constexpr double kGluExpertHiddenPasses = 7;
// Of one MoE layer's experts: parameter tensors (fc1, fc2 and their biases; glu's gate, up,
// down and biases), forward operations and passes over [rows, H] (the constants above).
double expert_tensors(const protocol::RunConfig& config);
double expert_ops(const protocol::RunConfig& config);
double expert_hidden_passes(const protocol::RunConfig& config);
// Backward against forward: the autograd graph runs about 1.5 operations per forward one and
// reads about 1.5 times the bytes (saved inputs and gradients).
inline constexpr double kBackwardOpsFactor = 1.5;
inline constexpr double kBackwardTrafficFactor = 1.5;
// Per parameter tensor in the optimizer step (core/engine/train/optimizer.cpp) and gradient
// clipping.
inline constexpr double kAdamOps = 12;
inline constexpr double kSgdOps = 4;
// Passes over a parameter's elements in one optimizer step (core/engine/train/optimizer.cpp):
// AdamW's lerp_ (3), mul_ (2), addcmul_ (3), sqrt (2), the bias division (2), add_ (2), addcdiv_
// (4); SGD's add_ (3) and with momentum mul_ + add_ (5); and the gradient norm's read (1).
inline constexpr double kAdamPasses = 19;
inline constexpr double kSgdPasses = 4;
inline constexpr double kMomentumPasses = 5;

// Bytes the non-MoE modules' element-wise work moves in one forward pass of `samples` samples
// (`tokens` tokens): norms, residuals, attention softmax and masks, the loss.
double dense_elementwise_bytes(const protocol::RunConfig& config, double samples, double tokens);
// Tensor operations of one forward pass of everything but the MoE layers.
double dense_ops(const protocol::RunConfig& config);
// Parameter tensors of the whole model (the optimizer works tensor by tensor).
double parameter_tensors(const protocol::RunConfig& config);
// Transient buffers of the MoE layers on one rank: all-to-all send and receive buffers, and the
// whole expert weights gathered (r = 0, or r < shards), bytes.
double buffer_bytes(const protocol::RunConfig& config, int64_t r, bool split, int64_t shards,
                    double slots);

// Elements of the largest parameter tensor one rank holds (its experts' fc1 or fc2 weight, an
// embedding, a dense layer): the optimizer's temporaries and a weight gradient's product are
// that size.
double largest_parameter_tensor(const protocol::RunConfig& config, double expert_share);
// Working memory beyond what is kept: AdamW's square root and division temporaries of the largest
// tensor, and the weight gradient product backward makes of it.
inline constexpr double kTransientTensors = 3;

}  // namespace moe::plan

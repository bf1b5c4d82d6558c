#pragma once
// Tutel's FLOP count of one MoE layer's experts for a training step: the figure behind the step
// event's "tflops", the bench's TFLOP/s and the editor's FLOP estimate. One definition for all of
// them; header-only.

namespace moe::protocol {

// 3 * 4 * N * k * M * H: each of the N tokens' k expert choices runs two GEMMs (fc1 M -> H, fc2
// H -> M) of 2 * M * H FLOPs each, and the backward pass costs twice the forward.
inline double expert_train_flops(double tokens, double top_k, double model_dim, double hidden) {
  return 3.0 * 4.0 * tokens * top_k * model_dim * hidden;
}

}  // namespace moe::protocol

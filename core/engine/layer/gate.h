#pragma once
// The gates of docs/ROUTING.md, "Gates": they map tokens [N, M] to logits [N, E]. Parameter names
// follow Tutel (docs/ROUTING.md, "Parameter names") so its checkpoints load directly.
#include <torch/torch.h>

namespace moe::layer {

class GateImpl : public torch::nn::Module {
 public:
  virtual at::Tensor logits(const at::Tensor& x) = 0;
};

// logits = x @ Wg^T  (gates.0.wg.weight [E, M], no bias)
class TopGateImpl : public GateImpl {
 public:
  // bias: the linear map has one (moe.gate_bias, GPT-OSS's router).
  TopGateImpl(int64_t model_dim, int64_t experts, bool bias = false);
  at::Tensor logits(const at::Tensor& x) override;

 private:
  torch::nn::Linear wg_{nullptr};
};

// logits = normalize(P x + b) . normalize_cols(S) * exp(min(t, ln 100))
class CosineGateImpl : public GateImpl {
 public:
  CosineGateImpl(int64_t model_dim, int64_t experts, int64_t proj_dim, double init_t);
  at::Tensor logits(const at::Tensor& x) override;

 private:
  torch::nn::Linear projector_{nullptr};
  at::Tensor sim_matrix_;   // [D, E]
  at::Tensor temperature_;  // [1], log of the inverse initial temperature
};

}  // namespace moe::layer

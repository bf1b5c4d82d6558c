#pragma once
// E batched FFN experts (docs/ROUTING.md, "Dispatch, experts, combine"): Y[e] = act(D[e] W1[e]^T +
// b1[e]) W2[e] + b2[e], run as batched GEMMs over the [E, C, M] dispatch buffer.
#include <torch/torch.h>

#include "moe/expert_partition.h"

#include <string>
#include <vector>

namespace moe {

enum class Activation { gelu, relu, silu };
Activation parse_activation(const std::string& name);

class ExpertsImpl : public torch::nn::Module {
 public:
  ExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act, bool fc1_bias,
              bool fc2_bias);
  // dispatched [E, C, M] -> [E, C, M] (E: the experts this module holds)
  at::Tensor forward(const at::Tensor& dispatched);

  // Expert parallelism: keep this rank's part only (the parameters shrink in place, so the
  // module's parameter list and names stay as they are).
  void keep_part(const ExpertPartition& partition);
  int64_t experts() const { return fc1_w_.size(0); }
  Activation activation() const { return act_; }
  // fc1_w, fc1_b, fc2_w, fc2_b (biases undefined when absent), in the compute dtype when one is
  // set (a differentiable cast: gradients reach the parameters in their own dtype).
  std::vector<at::Tensor> weights() const;
  // The dtype the expert GEMMs run in (undefined: the parameters' own); see ComputeDtypeScope.
  void set_compute_dtype(c10::optional<at::ScalarType> dtype) { compute_dtype_ = dtype; }

 private:
  Activation act_;
  c10::optional<at::ScalarType> compute_dtype_;
  at::Tensor fc1_w_, fc2_w_, fc1_b_, fc2_b_;
};
TORCH_MODULE(Experts);

}  // namespace moe

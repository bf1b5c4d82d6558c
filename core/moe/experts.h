#pragma once
// E batched FFN experts (docs/ROUTING.md, "Dispatch, experts, combine"): Y[e] = act(D[e] W1[e]^T +
// b1[e]) W2[e] + b2[e], run as batched GEMMs over the [E, C, M] dispatch buffer.
#include <torch/torch.h>

#include <string>

namespace moe {

enum class Activation { gelu, relu, silu };
Activation parse_activation(const std::string& name);

class ExpertsImpl : public torch::nn::Module {
 public:
  ExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden, Activation act, bool fc1_bias,
              bool fc2_bias);
  // dispatched [E, C, M] -> [E, C, M]
  at::Tensor forward(const at::Tensor& dispatched);

 private:
  Activation act_;
  at::Tensor fc1_w_, fc2_w_, fc1_b_, fc2_b_;
};
TORCH_MODULE(Experts);

}  // namespace moe

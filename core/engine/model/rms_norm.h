#pragma once
// RMSNorm as the Hugging Face decoders compute it: x / sqrt(mean(x^2) + eps) in float32 (float64
// for float64 models), cast back to x's dtype, then times the weight (parameter `weight` [D],
// initialised to ones).
#include <torch/torch.h>

namespace moe::model {

class RmsNormImpl : public torch::nn::Module {
 public:
  RmsNormImpl(int64_t dim, double eps);
  at::Tensor forward(const at::Tensor& x);

 private:
  double eps_;
  at::Tensor weight_;
};
TORCH_MODULE(RmsNorm);

}  // namespace moe::model

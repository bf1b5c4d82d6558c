#pragma once
// A dense gated MLP, down(act(gate(x)) * up(x)) with `gate_proj`, `up_proj`, `down_proj` and no
// biases: the decoders' dense layers and their shared experts (docs/MODELS.md).
#include <torch/torch.h>

#include "protocol/config_enums.h"

namespace moe::model {

class GluMlpImpl : public torch::nn::Module {
 public:
  GluMlpImpl(int64_t dim, int64_t hidden, protocol::Activation act);
  at::Tensor forward(const at::Tensor& x);

 private:
  protocol::Activation act_;
  torch::nn::Linear gate_proj_{nullptr}, up_proj_{nullptr}, down_proj_{nullptr};
};
TORCH_MODULE(GluMlp);

}  // namespace moe::model

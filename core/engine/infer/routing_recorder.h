#pragma once
// The experts each MoE layer chose in a decoder's latest forward pass (generation's per-token
// routing telemetry, docs/INFERENCE.md): observers on every MoE layer while the recorder lives.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "model/decoder_model.h"

namespace moe::infer {

// One MoE layer's choices for one position: the k experts, best first, and their weights.
struct ExpertChoice {
  int64_t layer = 0;  // the decoder layer's index
  std::vector<int64_t> experts;
  std::vector<double> weights;
};

class RoutingRecorder {
 public:
  explicit RoutingRecorder(model::DecoderModelImpl& model);
  ~RoutingRecorder();
  RoutingRecorder(const RoutingRecorder&) = delete;
  RoutingRecorder& operator=(const RoutingRecorder&) = delete;

  // Every MoE layer's choices for token `n` (row-major over the pass's [B, T] positions) of the
  // latest forward pass.
  std::vector<ExpertChoice> choices(int64_t n) const;

 private:
  struct LayerChoices {
    int64_t layer = 0;
    at::Tensor experts;  // int64 [k, N] on the CPU
    at::Tensor weights;  // float64 [k, N] on the CPU
  };
  std::vector<std::pair<int64_t, layer::MoeLayer>> blocks_;
  std::vector<LayerChoices> latest_;
};

}  // namespace moe::infer

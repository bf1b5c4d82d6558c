#pragma once
// Collects what each MoE layer of a forward pass reports (docs/ROUTING.md, "Auxiliary losses" and
// "Load metrics") into a ModelOutput.
#include <torch/torch.h>

#include <vector>

#include "model/model.h"

namespace moe::model {

class MoeLosses {
 public:
  // Sums are kept in `dtype` (the model's loss dtype: float32, or float64).
  explicit MoeLosses(at::ScalarType dtype);

  // Adds one layer's l_aux, z-loss and load stats; returns its output.
  at::Tensor add(layer::MoeOutput out);

  // Sets out's aux_loss, z_loss and load (in layer order).
  void fill(ModelOutput& out) &&;

 private:
  at::Tensor aux_, z_;
  std::vector<layer::LayerLoad> load_;
};

}  // namespace moe::model

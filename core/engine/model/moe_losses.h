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
  // hf_load_balancing: the layers' choice shares and mean probabilities, summed.
  at::Tensor share_sum_, prob_sum_;
  int64_t balance_layers_ = 0;
  std::vector<layer::LayerLoad> load_;
};

}  // namespace moe::model

#pragma once
// The figures of one optimizer step gathered over its micro-batches (train.grad_accum): losses
// averaged, expert demand and kept counts summed per layer, then turned into telemetry events.
#include <cstdint>
#include <vector>

#include "model/model.h"
#include "protocol/telemetry_events.h"

namespace moe::train {

class StepTotals {
 public:
  // Adds a micro-batch's losses and load on their device (no host sync).
  void add(const model::ModelOutput& out);
  // [task, aux, z]: the means over the micro-batches so far (float64, on the model's device).
  at::Tensor mean_losses() const { return losses_ / static_cast<double>(micro_); }
  // The step's losses as reported (the means above, averaged over the ranks): read once a step.
  void set_losses(double task, double aux, double z) { task_ = task, aux_ = aux, z_ = z; }

  int64_t micro_batches() const { return micro_; }
  int64_t tokens() const { return tokens_; }
  double task_loss() const { return task_; }
  double aux_loss() const { return aux_; }
  double z_loss() const { return z_; }

  // The selection bias [E] MoE layer `layer` routed this step with, kept before the update after
  // the optimizer step changes it (a copy on its device: no sync).
  void keep_selection_bias(size_t layer, const at::Tensor& bias);

  // docs/ROUTING.md, "Load metrics" for MoE layer `layer` over the whole step, with the kept
  // selection bias when there is one.
  protocol::ExpertLoadEvent expert_load(int64_t step, int64_t layer) const;
  size_t layers() const { return layers_.size(); }

 private:
  struct LayerTotals {
    at::Tensor demand, kept, means;  // sums over micro-batches, as in LayerLoad
    at::Tensor selection_bias;       // undefined without bias balancing
    int64_t capacity = 0;
  };
  int64_t micro_ = 0, tokens_ = 0;
  at::Tensor losses_;
  double task_ = 0, aux_ = 0, z_ = 0;
  std::vector<LayerTotals> layers_;
};

}  // namespace moe::train

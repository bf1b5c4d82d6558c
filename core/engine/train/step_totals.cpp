#include "train/step_totals.h"

#include <algorithm>

namespace moe::train {

namespace {

// Sums on the tensors' device: adding a micro-batch waits for nothing.
void add_into(at::Tensor& sum, const at::Tensor& v) {
  sum = sum.defined() ? sum + v : v.clone();
}

}  // namespace

void StepTotals::add(const model::ModelOutput& out) {
  ++micro_;
  tokens_ += out.tokens;
  add_into(losses_, at::stack({out.task_loss.detach().to(at::kDouble),
                               out.aux_loss.detach().to(out.task_loss.device(), at::kDouble),
                               out.z_loss.detach().to(out.task_loss.device(), at::kDouble)}));
  if (layers_.empty()) layers_.resize(out.load.size());
  for (size_t i = 0; i < out.load.size() && i < layers_.size(); ++i) {
    const layer::LayerLoad& s = out.load[i];
    LayerTotals& t = layers_[i];
    add_into(t.demand, s.demand);
    add_into(t.kept, s.kept);
    add_into(t.means, s.means);
    t.capacity = std::max(t.capacity, s.capacity);
  }
}

void StepTotals::keep_selection_bias(size_t layer, const at::Tensor& bias) {
  if (layer < layers_.size()) layers_[layer].selection_bias = bias.detach().clone();
}

protocol::ExpertLoadEvent StepTotals::expert_load(int64_t step, int64_t layer) const {
  const LayerTotals& t = layers_.at(layer);
  // Metrics of the summed counts; capacity is per micro-batch (each pass routes separately).
  // The one read of the step's load figures from the device.
  const layer::LoadStats s = layer::LayerLoad{t.demand, t.kept, t.capacity, t.means}.host();
  protocol::ExpertLoadEvent e;
  e.step = step;
  e.layer = layer;
  e.counts = s.counts;
  e.kept = s.kept;
  e.capacity = s.capacity;
  e.dropped_frac = s.dropped_frac;
  e.cv = s.cv;
  e.max_over_mean = s.max_over_mean;
  e.load_entropy = s.load_entropy;
  e.dead_experts = s.dead_experts;
  const double n = static_cast<double>(micro_);
  e.router_entropy = s.router_entropy / n;
  for (double v : s.importance) e.importance.push_back(v / n);
  e.l_aux = s.l_aux / n;
  e.z_loss = s.z_loss / n;
  if (t.selection_bias.defined()) {
    const at::Tensor bias = t.selection_bias.to(at::kCPU, at::kDouble).contiguous();
    const double* b = bias.data_ptr<double>();
    e.bias.emplace(b, b + bias.numel());
  }
  return e;
}

}  // namespace moe::train

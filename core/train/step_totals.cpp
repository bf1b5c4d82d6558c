#include "train/step_totals.h"

#include <algorithm>

namespace moe::train {

namespace {

template <class T>
void add_into(std::vector<T>& sum, const std::vector<T>& v) {
  if (sum.empty()) sum.assign(v.size(), T{});
  for (size_t i = 0; i < v.size() && i < sum.size(); ++i) sum[i] += v[i];
}

}  // namespace

void StepTotals::add(const model::ModelOutput& out, double task, double aux, double z) {
  ++micro_;
  tokens_ += out.tokens;
  task_ += task;
  aux_ += aux;
  z_ += z;
  if (layers_.empty()) layers_.resize(out.load.size());
  for (size_t i = 0; i < out.load.size() && i < layers_.size(); ++i) {
    const LoadStats& s = out.load[i];
    LayerTotals& t = layers_[i];
    add_into(t.demand, s.counts);
    add_into(t.kept, s.kept);
    add_into(t.importance, s.importance);
    t.capacity = std::max(t.capacity, s.capacity);
    t.router_entropy += s.router_entropy;
    t.l_aux += s.l_aux;
    t.z_loss += s.z_loss;
  }
}

protocol::ExpertLoadEvent StepTotals::expert_load(int64_t step, int64_t layer) const {
  const LayerTotals& t = layers_.at(layer);
  // Metrics of the summed counts; capacity is per micro-batch (each pass routes separately).
  LoadStats s = load_stats_from_counts(t.demand, t.kept, t.capacity);
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
  e.router_entropy = t.router_entropy / n;
  for (double v : t.importance) e.importance.push_back(v / n);
  e.l_aux = t.l_aux / n;
  e.z_loss = t.z_loss / n;
  return e;
}

}  // namespace moe::train

#include "layer/load_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moe::layer {

LoadStats load_stats_from_counts(const std::vector<int64_t>& demand,
                                 const std::vector<int64_t>& kept, int64_t capacity) {
  LoadStats s;
  s.counts = demand;
  s.kept = kept;
  s.capacity = capacity;
  const double E = static_cast<double>(demand.size());
  const double total = std::accumulate(demand.begin(), demand.end(), 0.0);
  const double total_kept = std::accumulate(kept.begin(), kept.end(), 0.0);
  s.dead_experts = std::count(demand.begin(), demand.end(), int64_t{0});
  if (total <= 0 || E == 0) {
    s.load_entropy = 0;
    return s;  // nothing routed: every ratio is undefined, report zeros
  }
  const double mean = total / E;
  double var = 0, entropy = 0, max_d = 0;
  for (int64_t d : demand) {
    var += (d - mean) * (d - mean);
    max_d = std::max(max_d, static_cast<double>(d));
    if (d > 0) entropy -= (d / total) * std::log(d / total);
  }
  s.dropped_frac = 1.0 - total_kept / total;
  s.cv = std::sqrt(var / E) / mean;
  s.max_over_mean = max_d / mean;
  s.load_entropy = E > 1 ? entropy / std::log(E) : 1.0;
  return s;
}

at::Tensor router_entropy(const at::Tensor& scores) {
  const int64_t E = scores.size(1);
  const auto doubles = scores.options().dtype(at::kDouble);
  if (E <= 1 || scores.size(0) == 0) return at::ones({}, doubles);
  auto p = scores.detach();
  if (p.scalar_type() != at::kDouble) p = p.to(at::kFloat);  // float is plenty for a metric
  auto h = -(p * p.clamp_min(1e-30).log()).sum(1);
  return h.mean().to(at::kDouble) / std::log(static_cast<double>(E));
}

namespace {

std::vector<int64_t> to_vector(const at::Tensor& t) {
  const auto host = t.to(at::kCPU, at::kLong).contiguous();
  const int64_t* p = host.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + host.numel());
}

}  // namespace

LoadStats LayerLoad::host() const {
  LoadStats s = load_stats_from_counts(to_vector(demand), to_vector(kept), capacity);
  const auto m = means.to(at::kCPU, at::kDouble).contiguous();
  const double* v = m.data_ptr<double>();
  const int64_t E = m.numel() - 3;
  s.importance.assign(v, v + E);
  s.router_entropy = v[E];
  s.l_aux = v[E + 1];
  s.z_loss = v[E + 2];
  return s;
}

}  // namespace moe::layer

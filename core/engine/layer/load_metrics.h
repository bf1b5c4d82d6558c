#pragma once
// The load-balance metrics of docs/ROUTING.md, "Load metrics", for one MoE layer and one forward
// pass.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace moe::layer {

struct LoadStats {
  std::vector<int64_t> counts;  // demand d[e]
  std::vector<int64_t> kept;    // min(d[e], C)
  int64_t capacity = 0;
  double dropped_frac = 0, cv = 0, max_over_mean = 0, load_entropy = 0, router_entropy = 0;
  int64_t dead_experts = 0;
  std::vector<double> importance;  // mean score per expert
  double l_aux = 0, z_loss = 0;
};

// One forward pass's load figures as the layer leaves them, on its device. Reading them (host())
// synchronises with the device: the trainer does it when it writes telemetry, the forward pass
// never does.
struct LayerLoad {
  at::Tensor demand, kept;  // [E] int64
  int64_t capacity = 0;
  // [E + 3] float64: mean score per expert, router entropy, l_aux, z_loss (means over the group)
  at::Tensor means;

  LoadStats host() const;
};

// Fills every metric derivable from demand and kept counts (the rest is set by the caller).
LoadStats load_stats_from_counts(const std::vector<int64_t>& demand,
                                 const std::vector<int64_t>& kept, int64_t capacity);

// mean_n H(scores[n, :]) / ln E as a 0-d float64 tensor on the scores' device; 1 for a single
// expert or no tokens.
at::Tensor router_entropy(const at::Tensor& scores);

}  // namespace moe::layer

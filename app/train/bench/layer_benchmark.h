#pragma once
// One benchmark point of SPEC section 7: a MoE layer from a RunConfig, timed forward and
// forward+backward, set against the expert-GEMM ceiling and the naive GShard baseline.
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "bench/gemm_ceiling.h"
#include "bench/timing.h"
#include "protocol/run_config.h"

namespace moe::train {

struct LayerBenchOptions {
  TimingOptions timing;
  bool naive = true;  // also time the naive baseline
};

struct LayerBenchResult {
  nlohmann::json swept;  // the swept keys and their values
  int64_t tokens = 0, capacity = 0, top_k = 0;
  double forward_ms = 0, train_ms = 0;
  double forward_tokens_per_s = 0, train_tokens_per_s = 0, train_tflops = 0, efficiency = 0;
  std::map<std::string, double> phases_ms;  // per training step
  double routing_share = 0;  // (gate + dispatch + combine, forward and backward) / train time
  GemmCeiling ceiling;
  double naive_train_ms = 0, naive_train_tokens_per_s = 0;
  double naive_max_abs_diff = -1;  // our output vs the naive one; -1 when not comparable
};

LayerBenchResult benchmark_layer(const protocol::RunConfig& config,
                                 const LayerBenchOptions& options);

// SPEC 7: F = 3 * 4 * N * k' * M * H for forward + backward of the experts.
double expert_train_flops(int64_t tokens, int64_t top_k, int64_t model_dim, int64_t hidden);

}  // namespace moe::train

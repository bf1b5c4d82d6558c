#pragma once
// One point of the layer benchmark (docs/BENCHMARKS.md): a MoE layer from a RunConfig, timed
// forward and forward+backward, set against the expert-GEMM ceiling and the naive GShard baseline.
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "bench/gemm_ceiling.h"
#include "bench/timing.h"
#include "protocol/run_config.h"

namespace moe::bench {

struct LayerBenchOptions {
  TimingOptions timing;
  bool naive = true;     // also time the naive baseline
  int blas_threads = 0;  // > 0: use this many instead of searching (when the BLAS allows)
};

// Every ratio is a median over the same rounds: in each round the ceiling, the layer and the
// naive baseline run once each, one after the other (see Rounds).
struct LayerBenchResult {
  nlohmann::json swept;  // the swept keys and their values
  int64_t tokens = 0, capacity = 0, top_k = 0;
  int rounds = 0;
  ThreadConfig threads;    // intra-op and BLAS threads chosen for this config (fastest ceiling)
  int kernel_threads = 0;  // the kernels' worker pool
  double forward_ms = 0;   // layer forward alone, its own median
  double train_ms = 0;     // layer forward + backward, median over the rounds
  double forward_tokens_per_s = 0, train_tokens_per_s = 0, train_tflops = 0;
  double ceiling_train_ms = 0;              // the expert GEMMs, median over the rounds
  int ceiling_gemms = 6;                    // 6 (FFN experts) or 9 (GLU experts)
  double efficiency = 0;                    // median over rounds of ceiling time / layer time
  std::map<std::string, double> phases_ms;  // per layer step, median over the rounds
  // Median over rounds of (gate + dispatch + combine, forward and backward) / layer time.
  double routing_share = 0;
  double naive_train_ms = 0, naive_train_tokens_per_s = 0;
  double naive_speedup = 0;  // median over rounds of naive time / layer time
  int64_t naive_capacity = 0;
  double naive_max_abs_diff = -1;  // our output vs the naive one; -1 when not comparable
  // Dropless on one CPU process: the routed rows (the sum of the experts' kept choices) against
  // the rows of the padded buffer, E * C. When the layer computes its experts over the routed
  // rows alone (layer::ragged_experts, layer/token_dispatcher.h), the same layer on the padded
  // buffer is timed in each round too.
  int64_t routed_rows = 0, buffer_rows = 0;
  double padded_train_ms = 0;  // 0 when not timed
  double ragged_speedup = 0;   // median over rounds of padded time / layer time
};

LayerBenchResult benchmark_layer(const protocol::RunConfig& config,
                                 const LayerBenchOptions& options);

}  // namespace moe::bench

#pragma once
// The efficiency ceiling of the layer benchmark (docs/BENCHMARKS.md): the layer's expert work
// done as plain batched GEMMs ([E, C, M] x [E, M, H] and back), forward and backward, on the
// layer's own shapes.
#include <torch/torch.h>

#include <vector>

#include "bench/blas_threads.h"
#include "bench/timing.h"

namespace moe::bench {

struct ExpertShape {
  int64_t experts, capacity, model_dim, hidden;
  at::ScalarType dtype;
  at::Device device = at::kCPU;
};

struct GemmCeiling {
  ThreadConfig threads;  // the fastest configuration found
  double train_ms = 0;   // the 6 GEMMs of forward + backward
};

// The six GEMMs on random operands of the layer's shapes.
class ExpertGemms {
 public:
  explicit ExpertGemms(const ExpertShape& shape);
  void forward() const;
  void backward() const;
  void train_step() const {
    forward();
    backward();
  }

 private:
  at::Tensor d_, w1t_, w2_, h_, grad_y_;
};

// Times the GEMMs under every candidate thread configuration and keeps the fastest (by train_ms).
GemmCeiling measure_gemm_ceiling(const ExpertGemms& gemms, const TimingOptions& timing,
                                 const std::vector<ThreadConfig>& candidates);

// The thread configurations worth trying on this machine.
std::vector<ThreadConfig> candidate_thread_configs();

}  // namespace moe::bench

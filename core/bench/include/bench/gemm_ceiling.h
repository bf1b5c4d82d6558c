#pragma once
// The efficiency ceiling of the layer benchmark (docs/BENCHMARKS.md): the layer's expert work
// done as plain batched GEMMs ([E, C, M] x [E, M, H] and back), forward and backward, on the
// layer's own shapes: 6 for the FFN experts, 9 for the gated (GLU) ones, whose gate and up
// projections are two GEMMs each way.
#include <torch/torch.h>

#include <vector>

#include "bench/blas_threads.h"
#include "bench/timing.h"

namespace moe::bench {

struct ExpertShape {
  int64_t experts, capacity, model_dim, hidden;
  at::ScalarType dtype;
  at::Device device = at::kCPU;
  bool gated = false;  // GLU experts: a second input projection (moe.expert_ffn "glu")
};

struct GemmCeiling {
  ThreadConfig threads;  // the fastest configuration found
  double train_ms = 0;   // the GEMMs of forward + backward
};

// The GEMMs on random operands of the layer's shapes: forward h = d w1 (and h3 = d w3 when
// gated), y = h w2; backward the gradients of h, w2, d and w1 (and of d and w3 again when gated).
class ExpertGemms {
 public:
  explicit ExpertGemms(const ExpertShape& shape);
  // 6, or 9 when gated.
  int count() const { return w3t_.defined() ? 9 : 6; }
  void forward() const;
  void backward() const;
  void train_step() const {
    forward();
    backward();
  }

 private:
  at::Tensor d_, w1t_, w2_, h_, grad_y_;
  at::Tensor w3t_;  // gated only
};

// Times the GEMMs under every candidate thread configuration and keeps the fastest (by train_ms).
GemmCeiling measure_gemm_ceiling(const ExpertGemms& gemms, const TimingOptions& timing,
                                 const std::vector<ThreadConfig>& candidates);

// The thread configurations worth trying on this machine.
std::vector<ThreadConfig> candidate_thread_configs();

}  // namespace moe::bench

#include "bench/gemm_ceiling.h"

#include <algorithm>
#include <thread>

namespace moe::bench {

ExpertGemms::ExpertGemms(const ExpertShape& s) {
  auto opt = at::TensorOptions().dtype(s.dtype).device(s.device);
  d_ = at::randn({s.experts, s.capacity, s.model_dim}, opt);
  w1t_ = at::randn({s.experts, s.model_dim, s.hidden}, opt);
  w2_ = at::randn({s.experts, s.hidden, s.model_dim}, opt);
  h_ = at::randn({s.experts, s.capacity, s.hidden}, opt);
  grad_y_ = at::randn({s.experts, s.capacity, s.model_dim}, opt);
  if (s.gated) w3t_ = at::randn({s.experts, s.model_dim, s.hidden}, opt);
}

void ExpertGemms::forward() const {
  torch::NoGradGuard no_grad;
  auto h = at::bmm(d_, w1t_);  // [E, C, H]
  if (w3t_.defined()) {
    auto h3 = at::bmm(d_, w3t_);  // [E, C, H]
  }
  auto y = at::bmm(h, w2_);  // [E, C, M]
}

void ExpertGemms::backward() const {
  torch::NoGradGuard no_grad;
  auto grad_h = at::bmm(grad_y_, w2_.transpose(1, 2));  // [E, C, H]
  auto grad_w2 = at::bmm(h_.transpose(1, 2), grad_y_);  // [E, H, M]
  auto grad_d = at::bmm(grad_h, w1t_.transpose(1, 2));  // [E, C, M]
  auto grad_w1 = at::bmm(d_.transpose(1, 2), grad_h);   // [E, M, H]
  if (!w3t_.defined()) return;
  // The up projection's gradient has the gate's shapes: grad_h stands in for it.
  auto grad_d3 = at::bmm(grad_h, w3t_.transpose(1, 2));  // [E, C, M]
  auto grad_w3 = at::bmm(d_.transpose(1, 2), grad_h);    // [E, M, H]
}

// LibTorch's bmm calls the BLAS once per expert, outside its intra-op pool (measured: intra-op
// 2 with BLAS 1 keeps one core busy, the same as intra-op 1), so with a BLAS whose threads can be
// set only those are searched, and LibTorch's pool stays at one thread. More would change
// nothing in the GEMMs, yet its OpenMP workers spin for milliseconds after each LibTorch op, on
// the cores the kernels' pool is about to use (the layer's element-wise work runs on that pool).
// A BLAS without that control (MKL follows OpenMP) is searched over intra-op threads instead.
std::vector<ThreadConfig> candidate_thread_configs() {
  const int cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<ThreadConfig> out;
  if (blas_threads_controllable()) {
    out.push_back({1, 1});
    if (cores > 1) out.push_back({1, cores});
  } else {
    out.push_back({1, 0});
    if (cores > 1) out.push_back({cores, 0});
  }
  return out;
}

GemmCeiling measure_gemm_ceiling(const ExpertGemms& gemms, const TimingOptions& timing,
                                 const std::vector<ThreadConfig>& candidates) {
  const auto saved = current_thread_config();
  GemmCeiling best;
  for (const auto& threads : candidates) {
    apply_thread_config(threads);
    const double ms = median_ms(timing, [&] { gemms.train_step(); });
    if (best.train_ms == 0 || ms < best.train_ms) best = GemmCeiling{threads, ms};
  }
  apply_thread_config(saved);
  return best;
}

}  // namespace moe::bench

#include "bench/gemm_ceiling.h"

#include <thread>

namespace moe::train {

ExpertGemms::ExpertGemms(const ExpertShape& s) {
  auto opt = at::TensorOptions().dtype(s.dtype);
  d_ = at::randn({s.experts, s.capacity, s.model_dim}, opt);
  w1t_ = at::randn({s.experts, s.model_dim, s.hidden}, opt);
  w2_ = at::randn({s.experts, s.hidden, s.model_dim}, opt);
  h_ = at::randn({s.experts, s.capacity, s.hidden}, opt);
  grad_y_ = at::randn({s.experts, s.capacity, s.model_dim}, opt);
}

void ExpertGemms::forward() const {
  torch::NoGradGuard no_grad;
  auto h = at::bmm(d_, w1t_);  // [E, C, H]
  auto y = at::bmm(h, w2_);    // [E, C, M]
}

void ExpertGemms::backward() const {
  torch::NoGradGuard no_grad;
  auto grad_h = at::bmm(grad_y_, w2_.transpose(1, 2));  // [E, C, H]
  auto grad_w2 = at::bmm(h_.transpose(1, 2), grad_y_);  // [E, H, M]
  auto grad_d = at::bmm(grad_h, w1t_.transpose(1, 2));  // [E, C, M]
  auto grad_w1 = at::bmm(d_.transpose(1, 2), grad_h);   // [E, M, H]
}

std::vector<ThreadConfig> candidate_thread_configs() {
  const int cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<ThreadConfig> out;
  const bool blas = blas_threads_controllable();
  out.push_back({1, blas ? cores : 0});
  if (cores > 1) {
    out.push_back({cores, blas ? 1 : 0});
    if (blas) out.push_back({cores, cores});
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

}  // namespace moe::train

#include "bench/gemm_ceiling.h"

#include <thread>

namespace moe::train {

namespace {

struct GemmOperands {
  at::Tensor d, w1t, w2, h, grad_y;
};

GemmOperands make_operands(const ExpertShape& s) {
  auto opt = at::TensorOptions().dtype(s.dtype);
  GemmOperands o;
  o.d = at::randn({s.experts, s.capacity, s.model_dim}, opt);
  o.w1t = at::randn({s.experts, s.model_dim, s.hidden}, opt);
  o.w2 = at::randn({s.experts, s.hidden, s.model_dim}, opt);
  o.h = at::randn({s.experts, s.capacity, s.hidden}, opt);
  o.grad_y = at::randn({s.experts, s.capacity, s.model_dim}, opt);
  return o;
}

void forward_gemms(const GemmOperands& o) {
  auto h = at::bmm(o.d, o.w1t);  // [E, C, H]
  auto y = at::bmm(h, o.w2);     // [E, C, M]
}

void backward_gemms(const GemmOperands& o) {
  auto grad_h = at::bmm(o.grad_y, o.w2.transpose(1, 2));  // [E, C, H]
  auto grad_w2 = at::bmm(o.h.transpose(1, 2), o.grad_y);  // [E, H, M]
  auto grad_d = at::bmm(grad_h, o.w1t.transpose(1, 2));   // [E, C, M]
  auto grad_w1 = at::bmm(o.d.transpose(1, 2), grad_h);    // [E, M, H]
}

}  // namespace

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

GemmCeiling measure_gemm_ceiling(const ExpertShape& shape, const TimingOptions& timing,
                                 const std::vector<ThreadConfig>& candidates) {
  torch::NoGradGuard no_grad;
  const auto saved = current_thread_config();
  const auto operands = make_operands(shape);
  GemmCeiling best;
  for (const auto& threads : candidates) {
    apply_thread_config(threads);
    const double fwd = median_ms(timing, [&] { forward_gemms(operands); });
    const double bwd = median_ms(timing, [&] { backward_gemms(operands); });
    if (best.train_ms == 0 || fwd + bwd < best.train_ms) {
      best = GemmCeiling{threads, fwd, fwd + bwd};
    }
  }
  apply_thread_config(saved);
  return best;
}

}  // namespace moe::train

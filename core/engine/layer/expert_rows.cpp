#include "layer/expert_rows.h"

#include "layer/kernel_backend.h"

namespace moe::layer {

namespace {

constexpr int64_t kRowsPerChunk = 32;

// Calls fn(e, r0, r1) for runs of rows [r0, r1) of expert e covering the whole [E, C, X] tensor t,
// in parallel on the CPU backend's pool (on a device backend, one run per expert: the work there
// is kernels). Grad mode is per thread and pool threads start with it on: turn it off there.
template <typename Fn>
void for_each_row_run(const at::Tensor& t, Fn&& fn) {
  const int64_t experts = t.size(0), capacity = t.size(1);
  if (capacity == 0) return;
  kernel_backend(t).parallel_for(experts * capacity, kRowsPerChunk,
                                 [&](int64_t begin, int64_t end) {
                                   torch::NoGradGuard no_grad;
                                   for (int64_t r = begin; r < end;) {
                                     const int64_t e = r / capacity;
                                     const int64_t stop = std::min(end, (e + 1) * capacity);
                                     fn(e, r - e * capacity, stop - e * capacity);
                                     r = stop;
                                   }
                                 });
}

void activation_out(at::Tensor& out, const at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::Gelu:
      at::gelu_out(out, z);
      break;
    case Activation::Relu:
      at::clamp_min_out(out, z, 0);
      break;
    case Activation::Silu:
      at::silu_out(out, z);
      break;
  }
}

}  // namespace

void bias_activation_rows(at::Tensor& z, const at::Tensor& bias, at::Tensor& out, Activation act) {
  const bool has_bias = bias.numel() > 0;
  for_each_row_run(z, [&](int64_t e, int64_t r0, int64_t r1) {
    auto zc = z[e].slice(0, r0, r1);
    if (has_bias) zc.add_(bias[e]);
    auto oc = out[e].slice(0, r0, r1);
    activation_out(oc, zc, act);
  });
}

void add_bias_rows(at::Tensor& y, const at::Tensor& bias) {
  if (bias.numel() == 0) return;
  for_each_row_run(y,
                   [&](int64_t e, int64_t r0, int64_t r1) { y[e].slice(0, r0, r1).add_(bias[e]); });
}

void activation_backward_rows(at::Tensor& grad, const at::Tensor& z, Activation act) {
  for_each_row_run(z, [&](int64_t e, int64_t r0, int64_t r1) {
    auto g = grad[e].slice(0, r0, r1);
    const auto zc = z[e].slice(0, r0, r1);
    switch (act) {
      case Activation::Gelu:
        at::gelu_backward_out(g, g, zc);
        break;
      case Activation::Relu:
        g.masked_fill_(zc <= 0, 0);
        break;
      case Activation::Silu:
        at::silu_backward_out(g, g, zc);
        break;
    }
  });
}

at::Tensor sum_rows(const at::Tensor& t) {
  const int64_t E = t.size(0), X = t.size(2);
  auto out = at::empty({E, X}, t.options());
  // Split by expert and column block so that no two chunks share an output element.
  constexpr int64_t kCols = 256;
  const int64_t blocks = (X + kCols - 1) / kCols;
  kernel_backend(t).parallel_for(E * blocks, 1, [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;
    for (int64_t i = begin; i < end; ++i) {
      const int64_t e = i / blocks, x0 = (i % blocks) * kCols, x1 = std::min(X, x0 + kCols);
      auto o = out[e].slice(0, x0, x1);
      at::sum_out(o, t[e].slice(1, x0, x1), {0});
    }
  });
  return out;
}

}  // namespace moe::layer

#include "layer/expert_rows.h"

namespace moe::layer {

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

void activation_backward_in_place(at::Tensor& grad, const at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::Gelu:
      at::gelu_backward_out(grad, grad, z);
      break;
    case Activation::Relu:
      grad.masked_fill_(z <= 0, 0);
      break;
    case Activation::Silu:
      at::silu_backward_out(grad, grad, z);
      break;
  }
}

void bias_activation_rows(at::Tensor& z, const at::Tensor& bias, at::Tensor& out, Activation act,
                          const at::Tensor& rows) {
  const bool has_bias = bias.numel() > 0;
  for_each_row_run(z, rows, [&](int64_t e, int64_t r0, int64_t r1) {
    auto zc = z[e].slice(0, r0, r1);
    if (has_bias) zc.add_(bias[e]);
    auto oc = out[e].slice(0, r0, r1);
    activation_out(oc, zc, act);
  });
}

void add_bias_rows(at::Tensor& y, const at::Tensor& bias, const at::Tensor& rows) {
  if (bias.numel() == 0) return;
  for_each_row_run(y, rows,
                   [&](int64_t e, int64_t r0, int64_t r1) { y[e].slice(0, r0, r1).add_(bias[e]); });
}

void activation_backward_rows(at::Tensor& grad, const at::Tensor& z, Activation act,
                              const at::Tensor& rows) {
  for_each_row_run(z, rows, [&](int64_t e, int64_t r0, int64_t r1) {
    auto g = grad[e].slice(0, r0, r1);
    activation_backward_in_place(g, z[e].slice(0, r0, r1), act);
  });
}

at::Tensor sum_rows(const at::Tensor& t, const at::Tensor& rows) {
  const int64_t E = t.size(0), C = t.size(1), X = t.size(2);
  auto out = at::empty({E, X}, t.options());
  // Split by expert and column block so that no two chunks share an output element.
  constexpr int64_t kCols = 256;
  const int64_t blocks = (X + kCols - 1) / kCols;
  parallel_over(t, E * blocks, 1, [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;
    for (int64_t i = begin; i < end; ++i) {
      const int64_t e = i / blocks, x0 = (i % blocks) * kCols, x1 = std::min(X, x0 + kCols);
      auto o = out[e].slice(0, x0, x1);
      at::sum_out(o, t[e].slice(0, 0, rows_of(rows, e, C)).slice(1, x0, x1), {0});
    }
  });
  return out;
}

namespace {

// out = a b, into out's memory (mm_out records no autograd: `differentiable` copies the product
// in instead).
void mm_into(at::Tensor out, const at::Tensor& a, const at::Tensor& b, bool differentiable) {
  if (differentiable) {
    out.copy_(at::mm(a, b));
    return;
  }
  at::mm_out(out, a, b);
}

// A backward pass run with create_graph: its GEMMs take tensors that require grad and must record.
bool differentiable(const at::Tensor& a, const at::Tensor& b) {
  return at::GradMode::is_enabled() && (a.requires_grad() || b.requires_grad());
}

// fn(e, used rows of e) for every expert of x [E, C, ...]: in parallel over the experts on the
// CPU's OpenMP team (parallel_over), each expert's GEMM on one thread (nested calls run serial).
// One multithreaded GEMM per expert, one after the other, would pay OpenMP's fork and join for
// every expert and GEMM (docs/BENCHMARKS.md, "Ragged expert GEMMs"). When autograd must record,
// on this thread, one after the other.
template <typename Fn>
void for_each_expert(const at::Tensor& x, const at::Tensor& rows, bool record, Fn&& fn) {
  const int64_t experts = x.size(0), capacity = x.size(1);
  if (record) {
    for (int64_t e = 0; e < experts; ++e) fn(e, rows_of(rows, e, capacity));
    return;
  }
  const auto each = [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;
    for (int64_t e = begin; e < end; ++e) fn(e, rows_of(rows, e, capacity));
  };
  parallel_over(x, experts, 1, each);
}

}  // namespace

at::Tensor rows_times(const at::Tensor& x, const at::Tensor& w, const at::Tensor& rows) {
  if (!rows.defined()) return at::bmm(x, w);
  const int64_t C = x.size(1);
  const bool record = differentiable(x, w);
  auto out = at::empty({x.size(0), C, w.size(2)}, x.options());
  for_each_expert(x, rows, record, [&](int64_t e, int64_t n) {
    auto o = out[e];
    if (n > 0) mm_into(o.narrow(0, 0, n), x[e].narrow(0, 0, n), w[e], record);
    if (n < C) o.narrow(0, n, C - n).zero_();
  });
  return out;
}

void add_rows_times(at::Tensor& out, const at::Tensor& x, const at::Tensor& w,
                    const at::Tensor& rows) {
  if (!rows.defined()) {
    out.baddbmm_(x, w);
    return;
  }
  for_each_expert(x, rows, differentiable(x, w), [&](int64_t e, int64_t n) {
    if (n > 0) out[e].narrow(0, 0, n).addmm_(x[e].narrow(0, 0, n), w[e]);
  });
}

at::Tensor rows_t_times(const at::Tensor& x, const at::Tensor& g, const at::Tensor& rows) {
  if (!rows.defined()) return at::bmm(x.transpose(1, 2), g);
  const bool record = differentiable(x, g);
  auto out = at::empty({x.size(0), x.size(2), g.size(2)}, x.options());
  for_each_expert(x, rows, record, [&](int64_t e, int64_t n) {
    auto o = out[e];
    if (n == 0) {
      o.zero_();
      return;
    }
    mm_into(o, x[e].narrow(0, 0, n).t(), g[e].narrow(0, 0, n), record);
  });
  return out;
}

}  // namespace moe::layer

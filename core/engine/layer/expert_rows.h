#pragma once
// Element-wise passes and GEMMs over [E, C, X] expert buffers. The element-wise passes run in
// parallel (parallel_over) in chunks of rows. Biases are [E, X]; an empty (numel 0) bias means
// none.
//
// Every function takes the rows in use: `rows` undefined means all C rows of every expert (the
// padded buffer); else `rows` is [E] int64 on the host and expert e uses only its first rows[e]
// slots (the ragged path: dropless routing on one process fills each expert's first slots only,
// and nothing need be computed on the others). The rows past rows[e] of a buffer the functions
// make are zero where the function says so, and otherwise left as they were (never read).
#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>

#include "layer/experts.h"
#include "layer/kernel_backend.h"

namespace moe::layer {

// The rows expert e uses of a buffer of `capacity` slots per expert.
inline int64_t rows_of(const at::Tensor& rows, int64_t e, int64_t capacity) {
  return rows.defined() ? std::min(rows.data_ptr<int64_t>()[e], capacity) : capacity;
}

// fn(begin, end) over [0, n) in chunks of at least `grain`: on the CPU on LibTorch's own OpenMP
// team, where ATen ops and GEMMs inside run serial and no second pool's threads contend with
// OpenMP's spinning ones for the cores (on 2 idle cores the kernels' pool here made the ragged
// layer 1.45x slower than the padded bmm; docs/BENCHMARKS.md); elsewhere on the kernel backend.
template <typename Fn>
void parallel_over(const at::Tensor& t, int64_t n, int64_t grain, const Fn& fn) {
  if (t.is_cpu()) {
    at::parallel_for(0, n, grain, fn);
  } else {
    kernel_backend(t).parallel_for(n, grain, fn);
  }
}

// Calls fn(e, r0, r1) for runs of used rows [r0, r1) of expert e, covering the used rows of the
// [E, C, X] tensor t, in parallel (parallel_over; on a device backend, one run per
// expert: the work there is kernels). Grad mode is per thread and pool threads start with it on:
// it is off inside fn.
template <typename Fn>
void for_each_row_run(const at::Tensor& t, const at::Tensor& rows, Fn&& fn) {
  constexpr int64_t kRowsPerChunk = 32;
  const int64_t experts = t.size(0), capacity = t.size(1);
  if (capacity == 0) return;
  parallel_over(t, experts * capacity, kRowsPerChunk, [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;
    for (int64_t r = begin; r < end;) {
      const int64_t e = r / capacity;
      const int64_t stop = std::min(end, (e + 1) * capacity);
      const int64_t used = e * capacity + rows_of(rows, e, capacity);
      if (r < used) fn(e, r - e * capacity, std::min(stop, used) - e * capacity);
      r = stop;
    }
  });
}

// out = act(z) (one run of rows).
void activation_out(at::Tensor& out, const at::Tensor& z, Activation act);
// grad (the gradient of act(z)) becomes the gradient of z, in place (one run of rows).
void activation_backward_in_place(at::Tensor& grad, const at::Tensor& z, Activation act);

// z += bias (in place); out = act(z).
void bias_activation_rows(at::Tensor& z, const at::Tensor& bias, at::Tensor& out, Activation act,
                          const at::Tensor& rows = {});

// y += bias (in place).
void add_bias_rows(at::Tensor& y, const at::Tensor& bias, const at::Tensor& rows = {});

// grad (the gradient of act(z)) becomes the gradient of z, in place.
void activation_backward_rows(at::Tensor& grad, const at::Tensor& z, Activation act,
                              const at::Tensor& rows = {});

// [E, C, X] -> [E, X]: the sum over the used rows of each expert.
at::Tensor sum_rows(const at::Tensor& t, const at::Tensor& rows = {});

// The expert GEMMs over the used rows (ragged: one GEMM per expert over exactly its rows; padded:
// one batched GEMM). w may be a transposed view.
// x [E, C, K] times w [E, K, N] -> [E, C, N]; the unused rows of the result are zero.
at::Tensor rows_times(const at::Tensor& x, const at::Tensor& w, const at::Tensor& rows = {});
// out [E, C, N] += x [E, C, K] times w [E, K, N], on the used rows.
void add_rows_times(at::Tensor& out, const at::Tensor& x, const at::Tensor& w,
                    const at::Tensor& rows = {});
// x [E, C, K] transposed times g [E, C, N] over the used rows -> [E, K, N] (a weight's gradient).
at::Tensor rows_t_times(const at::Tensor& x, const at::Tensor& g, const at::Tensor& rows = {});

}  // namespace moe::layer

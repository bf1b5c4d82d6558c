// Dispatch / combine of docs/ROUTING.md, "Dispatch, experts, combine" and their backward passes on
// the CPU.
//
// These kernels are memory-bound ([E*C, M] buffers of tens of MB), so each makes one pass over
// its data with no temporaries: unused slots are zero-filled in the same pass that writes the used
// ones. Outputs are partitioned between threads (by slot for [E, C, M], by token for [N, M]), each
// element is computed by one thread in a fixed order: no atomics, the same bits for every thread
// count. Inner loops run over contiguous rows through __restrict pointers so they vectorise.
#include "cpu/dispatch.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/threading.h"

namespace moe::kernels {
namespace {

// Element loads/stores in the accumulation type.
inline float load(float v) {
  return v;
}
inline double load(double v) {
  return v;
}
inline float load(bfloat16 v) {
  return to_float(v);
}
inline float load(float16 v) {
  return to_float(v);
}

template <typename T>
inline T store(acc_t<T> v) {
  return v;
}
template <>
inline bfloat16 store<bfloat16>(float f) {
  return to_bfloat16(f);
}
template <>
inline float16 store<float16>(float f) {
  return to_float16(f);
}

// Rows of at least ~64 KiB of traffic per chunk: below that, waking a worker costs more than it
// saves.
template <typename T>
int64_t row_grain(int64_t M, int64_t rows_touched_per_item) {
  const int64_t bytes =
      M * static_cast<int64_t>(sizeof(T)) * std::max<int64_t>(1, rows_touched_per_item);
  return std::max<int64_t>(1, (int64_t{64} << 10) / std::max<int64_t>(1, bytes));
}

template <typename T>
inline void zero_row(T* __restrict dst, int64_t M) {
  std::memset(static_cast<void*>(dst), 0, static_cast<size_t>(M) * sizeof(T));
}

// dst = w * src (a plain copy when unweighted).
template <typename T>
inline void scale_row(T* __restrict dst, const T* __restrict src, const T* gates, int64_t c,
                      int64_t M) {
  if (!gates) {
    std::memcpy(static_cast<void*>(dst), static_cast<const void*>(src),
                static_cast<size_t>(M) * sizeof(T));
    return;
  }
  const acc_t<T> w = load(gates[c]);
  for (int64_t i = 0; i < M; ++i) dst[i] = store<T>(w * load(src[i]));
}

// Dot product in acc_t<T> with a fixed number of partial sums (vectorisable without
// reassociating; the summation order depends only on M, never on threads).
template <typename T>
inline acc_t<T> dot_row(const T* __restrict a, const T* __restrict b, int64_t M) {
  using A = acc_t<T>;
  constexpr int L = 64 / sizeof(A);  // 16 floats or 8 doubles
  A part[L] = {};
  int64_t i = 0;
  for (; i + L <= M; i += L) {
    for (int l = 0; l < L; ++l) part[l] += load(a[i + l]) * load(b[i + l]);
  }
  for (int l = 0; i < M; ++i, ++l) part[l] += load(a[i]) * load(b[i]);
  for (int w = L / 2; w > 0; w /= 2) {
    for (int l = 0; l < w; ++l) part[l] += part[l + w];
  }
  return part[0];
}

// Starts fetching a row before it is used: the rows a kernel gathers are scattered (one per slot
// or per choice), so the hardware prefetcher cannot guess the next one. Touching the first few
// lines is enough to start the page walk and the hardware stream; prefetching whole rows floods
// the line-fill buffers and measured slower.
constexpr int64_t kPrefetchBytes = 256;

template <typename T>
inline void prefetch_row(const T* row, int64_t M) {
  const char* p = reinterpret_cast<const char*>(row);
  const int64_t bytes = std::min<int64_t>(kPrefetchBytes, M * static_cast<int64_t>(sizeof(T)));
  for (int64_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off, 0, 3);
}

// Token of a choice c = j * N + n without a 64-bit division per row.
class TokenOf {
 public:
  explicit TokenOf(int64_t N) : N_(N), inv_(N > 0 ? 1.0 / static_cast<double>(N) : 0.0) {}
  int64_t operator()(int64_t c) const {
    int64_t n = c - static_cast<int64_t>(static_cast<double>(c) * inv_) * N_;
    if (n < 0) n += N_;  // the estimate of j can be off by one either way
    if (n >= N_) n -= N_;
    return n;
  }

 private:
  int64_t N_;
  double inv_;
};

// Elements of a row handled per tile when accumulating several rows into one.
constexpr int64_t kTile = 512;

// The kept choices of one token: where their rows live and their weights.
struct Kept {
  int64_t choice;  // j * N + n
  int64_t row;     // e * C + s
};

inline bool is_kept(const RoutingView& r, int64_t c) {
  const int32_t s = r.loc[c];
  return s >= 0 && s < r.C;
}

// The kept choices of consecutive tokens, gathered one token ahead so that the next token's rows
// are prefetched while the current one is processed.
class KeptPipeline {
 public:
  KeptPipeline(const RoutingView& r, int64_t begin, int64_t end)
      : r_(r), end_(end), cur_(static_cast<size_t>(r.k)), next_(static_cast<size_t>(r.k)) {
    next_count_ = begin < end ? gather(begin, next_.data()) : 0;
  }

  // Makes token n (the one after the previous call, starting at begin) current and prefetches
  // the rows of token n + 1 in `rows_base`.
  template <typename T>
  void advance(int64_t n, const T* rows_base, int64_t M) {
    cur_.swap(next_);
    count_ = next_count_;
    next_count_ = n + 1 < end_ ? gather(n + 1, next_.data()) : 0;
    for (int i = 0; i < next_count_; ++i) prefetch_row(rows_base + next_[i].row * M, M);
  }

  const Kept* rows() const { return cur_.data(); }
  int count() const { return count_; }

 private:
  int gather(int64_t n, Kept* out) const {
    int count = 0;
    for (int64_t j = 0; j < r_.k; ++j) {
      const int64_t c = j * r_.N + n;
      if (is_kept(r_, c)) out[count++] = Kept{c, int64_t{r_.idx[c]} * r_.C + r_.loc[c]};
    }
    return count;
  }

  const RoutingView& r_;
  int64_t end_;
  std::vector<Kept> cur_, next_;
  int count_ = 0, next_count_ = 0;
};

// out = sum_i w_i * rows_i over the kept choices, accumulated in acc_t<T> in choice order.
template <typename T>
void weighted_sum_row(const Kept* kept, int count, const T* rows, const T* gates, int64_t M,
                      T* __restrict out) {
  using A = acc_t<T>;
  if (count == 0) {
    zero_row(out, M);
    return;
  }
  if (count == 1) {
    scale_row(out, rows + kept[0].row * M, gates, kept[0].choice, M);
    return;
  }
  A acc[kTile];
  for (int64_t m0 = 0; m0 < M; m0 += kTile) {
    const int64_t len = std::min(kTile, M - m0);
    for (int i = 0; i < count; ++i) {
      const T* __restrict src = rows + kept[i].row * M + m0;
      const A w = gates ? load(gates[kept[i].choice]) : A(1);
      if (i == 0) {
        for (int64_t m = 0; m < len; ++m) acc[m] = w * load(src[m]);
      } else {
        for (int64_t m = 0; m < len; ++m) acc[m] += w * load(src[m]);
      }
    }
    T* __restrict dst = out + m0;
    for (int64_t m = 0; m < len; ++m) dst[m] = store<T>(acc[m]);
  }
}

}  // namespace

template <typename T>
void dispatch_forward(const RoutingView& r, const T* x, const T* gates, int64_t M, T* buffer) {
  const int64_t S = r.E * r.C;
  if (S <= 0 || M <= 0) return;
  const TokenOf token_of(r.N);
  parallel_for(S, row_grain<T>(M, 2), [&](int64_t begin, int64_t end) {
    for (int64_t s = begin; s < end; ++s) {
      if (s + 1 < end && r.slot_map[s + 1] >= 0) {
        prefetch_row(x + token_of(r.slot_map[s + 1]) * M, M);
      }
      T* dst = buffer + s * M;
      const int64_t c = r.slot_map[s];
      if (c < 0) {
        zero_row(dst, M);
      } else {
        scale_row(dst, x + token_of(c) * M, gates, c, M);
      }
    }
  });
}

template <typename T>
void combine_forward(const RoutingView& r, const T* buffer, const T* gates, int64_t M, T* out) {
  if (r.N <= 0 || M <= 0) return;
  parallel_for(r.N, row_grain<T>(M, 1 + r.k), [&](int64_t begin, int64_t end) {
    KeptPipeline kept(r, begin, end);
    for (int64_t n = begin; n < end; ++n) {
      kept.advance(n, buffer, M);
      weighted_sum_row(kept.rows(), kept.count(), buffer, gates, M, out + n * M);
    }
  });
}

template <typename T>
void dispatch_backward(const RoutingView& r, const T* grad_buffer, const T* x, const T* gates,
                       int64_t M, T* grad_x, T* grad_gates) {
  if (r.N <= 0 || (!grad_x && !grad_gates)) return;
  parallel_for(r.N, row_grain<T>(M, 2 + r.k), [&](int64_t begin, int64_t end) {
    KeptPipeline kept(r, begin, end);
    for (int64_t n = begin; n < end; ++n) {
      kept.advance(n, grad_buffer, M);
      const Kept* rows = kept.rows();
      if (grad_gates) {
        for (int64_t j = 0; j < r.k; ++j) grad_gates[j * r.N + n] = store<T>(acc_t<T>(0));
        for (int i = 0; i < kept.count(); ++i) {
          grad_gates[rows[i].choice] =
              store<T>(dot_row(grad_buffer + rows[i].row * M, x + n * M, M));
        }
      }
      if (grad_x) weighted_sum_row(rows, kept.count(), grad_buffer, gates, M, grad_x + n * M);
    }
  });
}

template <typename T>
void combine_backward(const RoutingView& r, const T* grad_out, const T* buffer, const T* gates,
                      int64_t M, T* grad_buffer, T* grad_gates) {
  // grad_gates of dropped choices: zero. Kept ones are written below by the slot that holds them
  // (each kept choice owns exactly one slot, so these writes never collide).
  if (grad_gates && r.N > 0 && r.k > 0) {
    parallel_for(r.N * r.k, 1 << 14, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        if (!is_kept(r, c)) grad_gates[c] = store<T>(acc_t<T>(0));
      }
    });
  }
  const int64_t S = r.E * r.C;
  if (S <= 0 || (!grad_buffer && !grad_gates)) return;
  const int64_t rows_per_slot = (grad_buffer ? 2 : 0) + (grad_gates ? 2 : 0);
  const TokenOf token_of(r.N);
  parallel_for(S, row_grain<T>(M, rows_per_slot), [&](int64_t begin, int64_t end) {
    for (int64_t s = begin; s < end; ++s) {
      if (s + 1 < end && r.slot_map[s + 1] >= 0) {
        prefetch_row(grad_out + token_of(r.slot_map[s + 1]) * M, M);
      }
      const int64_t c = r.slot_map[s];
      if (c < 0) {
        if (grad_buffer) zero_row(grad_buffer + s * M, M);
        continue;
      }
      const T* go = grad_out + token_of(c) * M;
      if (grad_buffer) scale_row(grad_buffer + s * M, go, gates, c, M);
      if (grad_gates) grad_gates[c] = store<T>(dot_row(go, buffer + s * M, M));
    }
  });
}

#define MOE_INSTANTIATE_DISPATCH(T)                                                                \
  template void dispatch_forward<T>(const RoutingView&, const T*, const T*, int64_t, T*);          \
  template void combine_forward<T>(const RoutingView&, const T*, const T*, int64_t, T*);           \
  template void dispatch_backward<T>(const RoutingView&, const T*, const T*, const T*, int64_t,    \
                                     T*, T*);                                                      \
  template void combine_backward<T>(const RoutingView&, const T*, const T*, const T*, int64_t, T*, \
                                    T*);

MOE_INSTANTIATE_DISPATCH(float)
MOE_INSTANTIATE_DISPATCH(double)
MOE_INSTANTIATE_DISPATCH(bfloat16)
MOE_INSTANTIATE_DISPATCH(float16)

#undef MOE_INSTANTIATE_DISPATCH

}  // namespace moe::kernels

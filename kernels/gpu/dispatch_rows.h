#pragma once
// The element-wise dispatch/combine kernels: one group of `group` threads per output row (a slot
// row of [E, C, M] or a token row of [N, M]), grid-stride over rows, each thread every group-th
// pack of the row, so a group's loads are contiguous. Every output element is written by one
// thread: no atomics.
#include "dispatch_common.h"

namespace moe::kernels::gpu::dispatch_detail {

// Which rows and lanes a thread works on.
struct RowLanes {
  int64_t first, step;  // first row, rows between a thread's rows
  int lane;
  MOE_HD RowLanes(const Thread& t, int group) {
    const int64_t rows_per_block = t.threads / group;
    first = t.block * rows_per_block + t.thread / group;
    step = t.blocks * rows_per_block;
    lane = t.thread % group;
  }
};

// dst[s] = w * src[n] for the choice c = j * N + n in slot s (a plain copy when gates is null),
// zero for unused slots: dispatch_forward (src x, dst D) and combine_backward's grad_Y (src
// grad_out).
template <typename T, int V>
struct SlotScaleKernel {
  struct Params {
    const int64_t* slot_map;
    int64_t N, slots, packs;  // packs per row
    int group;
    const T* src;
    const T* gates;
    T* dst;
  };
  struct Local {};
  static constexpr int kPhases = 1;

  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    const RowLanes at(t, p.group);
    for (int64_t s = at.first; s < p.slots; s += at.step) {
      T* dst = p.dst + s * p.packs * V;
      const int64_t c = p.slot_map[s];
      if (c < 0) {
        for (int64_t q = at.lane; q < p.packs; q += p.group) store_pack(dst, q, zero_pack<T, V>());
        continue;
      }
      const T* src = p.src + (c % p.N) * p.packs * V;
      if (!p.gates) {
        for (int64_t q = at.lane; q < p.packs; q += p.group) {
          store_pack(dst, q, load_pack<T, V>(src, q));
        }
      } else {
        const acc_t<T> w = load(p.gates[c]);
        for (int64_t q = at.lane; q < p.packs; q += p.group) {
          store_pack(dst, q, scale_pack(w, load_pack<T, V>(src, q)));
        }
      }
    }
  }
};

// out[n] = sum over token n's kept choices j, in choice order, of w_j * rows[slot of j]: the sum
// starts from the first term (w * x, not 0 + w * x), one kept choice without gates is a plain copy
// and none kept is zero, as on the CPU. combine_forward (rows Y) and dispatch_backward's grad_x
// (rows grad_D).
template <typename T, int V>
struct TokenSumKernel {
  struct Params {
    const int32_t* idx;
    const int32_t* loc;
    int64_t N, k, C, packs;
    int group;
    const T* rows;
    const T* gates;
    T* out;
  };
  struct Local {};
  static constexpr int kPhases = 1;

  MOE_HD static const T* row_of(const Params& p, int64_t c) {
    return p.rows + (static_cast<int64_t>(p.idx[c]) * p.C + p.loc[c]) * p.packs * V;
  }

  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    using A = acc_t<T>;
    const RowLanes at(t, p.group);
    for (int64_t n = at.first; n < p.N; n += at.step) {
      T* out = p.out + n * p.packs * V;
      int kept = 0;
      int64_t only = -1;
      for (int64_t j = 0; j < p.k; ++j) {
        if (is_kept(p.loc, p.C, j * p.N + n)) {
          ++kept;
          only = j * p.N + n;
        }
      }
      if (kept == 0 || (kept == 1 && !p.gates)) {
        const T* src = kept ? row_of(p, only) : nullptr;
        for (int64_t q = at.lane; q < p.packs; q += p.group) {
          store_pack(out, q, src ? load_pack<T, V>(src, q) : zero_pack<T, V>());
        }
        continue;
      }
      for (int64_t q = at.lane; q < p.packs; q += p.group) {
        A acc[V] = {};  // every element is set by the first kept term
        bool first = true;
        for (int64_t j = 0; j < p.k; ++j) {
          const int64_t c = j * p.N + n;
          if (!is_kept(p.loc, p.C, c)) continue;
          const A w = p.gates ? load(p.gates[c]) : A(1);
          const Pack<T, V> x = load_pack<T, V>(row_of(p, c), q);
          for (int i = 0; i < V; ++i) {
            if (first) {
              acc[i] = w * load(x.v[i]);
            } else {
              acc[i] += w * load(x.v[i]);
            }
          }
          first = false;
        }
        Pack<T, V> sum;
        for (int i = 0; i < V; ++i) store(sum.v[i], acc[i]);
        store_pack(out, q, sum);
      }
    }
  }
};

// grad_gates[c] = 0 for every dropped choice (kept ones are written by the slot that owns them).
template <typename T>
struct ZeroDroppedKernel {
  struct Params {
    const int32_t* loc;
    int64_t C, choices;
    T* grad_gates;
  };
  struct Local {};
  static constexpr int kPhases = 1;

  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    for (int64_t c = t.global(); c < p.choices; c += t.stride()) {
      if (!is_kept(p.loc, p.C, c)) p.grad_gates[c] = T{};
    }
  }
};

}  // namespace moe::kernels::gpu::dispatch_detail

#pragma once
// Gate gradients as dot products of a token row and a slot row, summed in exactly the CPU order
// (kernels/cpu/dispatch.cpp, dot_row): L = 64 / sizeof(acc) partial sums, part[l] taking the
// elements i = l (mod L) in increasing i starting from 0, then the tree part[l] += part[l + w] for
// w = L/2 .. 1.
//
// A group of L / V threads computes one dot product: thread d reads packs d, d + L/V, ... of both
// rows, so its V partials are exactly the CPU's part[V*d .. V*d + V-1] (pack q holds elements
// V*q .. V*q + V-1, and V*q = V*d (mod L)). Phase 0 leaves the L partials in shared memory; each
// later phase is one tree level, so a level reads only what an earlier phase wrote; the last level
// also stores the result. Each gate gradient is written by the one group that owns it.
#include "dispatch_common.h"

namespace moe::kernels::gpu::dispatch_detail {

MOE_HD constexpr int log2_of(int n) {
  return n > 1 ? 1 + log2_of(n / 2) : 0;
}

// Items are slots (combine_backward: grad_gates[c] = <grad_out[n], Y[s]> for the choice c in slot
// s, and grad_Y[s] = w * grad_out[n] on the way, zero for unused slots) or choices
// (dispatch_backward: grad_gates[c] = <grad_D[slot of c], x[n]>, zero when c is dropped). The
// products keep the CPU's operand order, (token, slot) and (slot, token) respectively.
template <typename T, int V>
struct GateDotKernel {
  using A = acc_t<T>;
  static constexpr int kParts = 64 / static_cast<int>(sizeof(A));
  static constexpr int kGroup = kParts / V;  // threads per dot product
  static constexpr int kPhases = 1 + log2_of(kParts);
  static_assert(kGroup >= 1 && kGroup * V == kParts, "a pack must not straddle the partial sums");

  struct Params {
    const int32_t* idx;
    const int32_t* loc;
    const int64_t* slot_map;
    int64_t N, C, packs;        // packs per row
    bool by_slot;               // items are slots, else choices
    int64_t item_begin, items;  // this launch: items item_begin.. (grids are capped)
    const T* token_rows;        // grad_out or x [N, M]
    const T* slot_rows;         // Y or grad_D [E, C, M]
    T* scaled;                  // by_slot only, nullable: grad_Y [E, C, M]
    const T* gates;             // nullable: every weight 1
    T* grad_gates;              // [k, N]
  };
  struct Local {
    int64_t gate = -1;   // the grad_gates entry this group writes, -1: none
    bool owned = false;  // whether it is a dot product (else a dropped choice's zero)
  };

  // Bytes of shared memory for a block of `threads`: L partials per group (the launcher's shared
  // memory must be aligned for A: 8 bytes for double).
  static size_t shared_bytes(int threads) {
    return static_cast<size_t>(threads / kGroup) * kParts * sizeof(A);
  }

  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local& l,
                         unsigned char* shared) {
    A* parts = reinterpret_cast<A*>(shared) + static_cast<int64_t>(t.thread / kGroup) * kParts;
    const int d = t.thread % kGroup;
    if (phase == 0) {
      partials(t, p, l, d, parts);
      return;
    }
    const int w = kParts >> phase;
    if (w > 1) {
      for (int i = d; i < w; i += kGroup) parts[i] += parts[i + w];
    } else if (d == 0 && l.gate >= 0) {
      if (l.owned) {
        store(p.grad_gates[l.gate], parts[0] + parts[1]);
      } else {
        p.grad_gates[l.gate] = T{};
      }
    }
  }

 private:
  MOE_HD static void partials(const Thread& t, const Params& p, Local& l, int d, A* parts) {
    A part[V];
    for (int i = 0; i < V; ++i) part[i] = A(0);
    const int64_t item = p.item_begin + t.block * (t.threads / kGroup) + t.thread / kGroup;
    if (item < p.items) {
      int64_t c = item, slot = -1;
      if (p.by_slot) {
        slot = item;
        c = p.slot_map[slot];
      } else if (is_kept(p.loc, p.C, c)) {
        slot = static_cast<int64_t>(p.idx[c]) * p.C + p.loc[c];
      }
      const int64_t row = p.packs * V;
      if (c < 0) {  // an unused slot
        if (p.scaled) {
          for (int64_t q = d; q < p.packs; q += kGroup) {
            store_pack(p.scaled + slot * row, q, zero_pack<T, V>());
          }
        }
      } else {
        l.gate = c;
        l.owned = slot >= 0;
      }
      if (l.owned) {
        const T* tok = p.token_rows + (c % p.N) * row;
        const T* sl = p.slot_rows + slot * row;
        T* scaled = p.scaled ? p.scaled + slot * row : nullptr;
        const A w = p.gates ? load(p.gates[c]) : A(1);
        for (int64_t q = d; q < p.packs; q += kGroup) {
          const Pack<T, V> a = load_pack<T, V>(tok, q), b = load_pack<T, V>(sl, q);
          if (scaled) store_pack(scaled, q, p.gates ? scale_pack(w, a) : a);
          for (int i = 0; i < V; ++i) {
            part[i] += p.by_slot ? load(a.v[i]) * load(b.v[i]) : load(b.v[i]) * load(a.v[i]);
          }
        }
      }
    }
    for (int i = 0; i < V; ++i) parts[V * d + i] = part[i];
  }
};

}  // namespace moe::kernels::gpu::dispatch_detail

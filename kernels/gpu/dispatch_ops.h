#pragma once
// Dispatch, combine and their backward passes (moe_kernels/backend.h) on a GPU-shaped Device:
// the host side picks the element type and the pack width and launches the kernels of
// dispatch_rows.h and dispatch_dot.h.
//
// The results are the CPU backend's bit for bit (kernels/cpu/dispatch.cpp): every output element
// is computed by one thread with the CPU's operations in the CPU's order (sums from the first kept
// term in choice order, dot products with the CPU's partial sums and tree). That needs the device
// compilers not to contract a * b + c into an FMA: the device build uses nvcc --fmad=false and
// hipcc -ffp-contract=off. NaN payloads are not part of that promise: which operand's payload a
// NaN result carries depends on operand order, which compilers may commute (the CPU's vectorised
// loops) and devices may not keep at all (canonical NaNs). Partitioned as on the CPU: kernels
// writing [E, C, M] by slot, kernels writing [N, M] by token, each gate gradient by the one slot or
// choice that owns it; no atomics.
#include <type_traits>

#include "dispatch_dot.h"
#include "dispatch_rows.h"
#include "scratch.h"

namespace moe::kernels::gpu {
namespace dispatch_detail {

// Calls f(std::integral_constant<int, V>{}) with V = width (16 / sizeof(T) or 1).
template <typename T, typename F>
void with_width(int width, F&& f) {
  if (width == 1) {
    f(std::integral_constant<int, 1>{});
  } else {
    f(std::integral_constant<int, 16 / sizeof(T)>{});
  }
}

template <typename T, int V, typename Device>
void slot_scale(const Launch<Device>& launch, const RoutingView& r, const T* src, const T* gates,
                int64_t M, T* dst) {
  using K = SlotScaleKernel<T, V>;
  const int64_t packs = M / V, slots = r.E * r.C;
  const int group = group_for(packs, launch.threads);
  const typename K::Params p{r.slot_map, r.N, slots, packs, group, src, gates, dst};
  launch.template run<K>(blocks_for(slots, launch.threads / group), 0, p);
}

template <typename T, int V, typename Device>
void token_sum(const Launch<Device>& launch, const RoutingView& r, const T* rows, const T* gates,
               int64_t M, T* out) {
  using K = TokenSumKernel<T, V>;
  const int64_t packs = M / V;
  const int group = group_for(packs, launch.threads);
  const typename K::Params p{r.idx, r.loc, r.N, r.k, r.C, packs, group, rows, gates, out};
  launch.template run<K>(blocks_for(r.N, launch.threads / group), 0, p);
}

// Launches cover at most kMaxBlocks blocks of threads / kGroup items each.
template <typename T, int V, typename Device>
void gate_dots(const Launch<Device>& launch, typename GateDotKernel<T, V>::Params p) {
  using K = GateDotKernel<T, V>;
  const int64_t per_block = launch.threads / K::kGroup, total = p.items;
  for (int64_t begin = 0; begin < total; begin += kMaxBlocks * per_block) {
    p.item_begin = begin;
    launch.template run<K>(blocks_for(total - begin, per_block), K::shared_bytes(launch.threads),
                           p);
  }
}

}  // namespace dispatch_detail

template <class Device>
void dispatch_forward(const Launch<Device>& launch, DType dtype, const RoutingView& r,
                      const void* x, const void* gates, int64_t M, void* buffer) {
  using namespace dispatch_detail;
  if (r.E * r.C <= 0 || M <= 0) return;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    with_width<T>(pack_width<T>(M, x, buffer), [&](auto width) {
      slot_scale<T, decltype(width)::value>(launch, r, static_cast<const T*>(x),
                                            static_cast<const T*>(gates), M,
                                            static_cast<T*>(buffer));
    });
  });
}

template <class Device>
void combine_forward(const Launch<Device>& launch, DType dtype, const RoutingView& r,
                     const void* buffer, const void* gates, int64_t M, void* out) {
  using namespace dispatch_detail;
  if (r.N <= 0 || M <= 0) return;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    with_width<T>(pack_width<T>(M, buffer, out), [&](auto width) {
      token_sum<T, decltype(width)::value>(launch, r, static_cast<const T*>(buffer),
                                           static_cast<const T*>(gates), M, static_cast<T*>(out));
    });
  });
}

template <class Device>
void dispatch_backward(const Launch<Device>& launch, DType dtype, const RoutingView& r,
                       const void* grad_buffer, const void* x, const void* gates, int64_t M,
                       void* grad_x, void* grad_gates) {
  using namespace dispatch_detail;
  if (r.N <= 0 || (!grad_x && !grad_gates)) return;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    with_width<T>(pack_width<T>(M, grad_buffer, x, grad_x), [&](auto width) {
      constexpr int V = decltype(width)::value;
      const T* g = static_cast<const T*>(gates);
      if (grad_gates) {
        gate_dots<T, V>(launch, {r.idx, r.loc, r.slot_map, r.N, r.C, M / V, false, 0, r.k * r.N,
                                 static_cast<const T*>(x), static_cast<const T*>(grad_buffer),
                                 nullptr, g, static_cast<T*>(grad_gates)});
      }
      if (grad_x && M > 0) {
        token_sum<T, V>(launch, r, static_cast<const T*>(grad_buffer), g, M,
                        static_cast<T*>(grad_x));
      }
    });
  });
}

template <class Device>
void combine_backward(const Launch<Device>& launch, DType dtype, const RoutingView& r,
                      const void* grad_out, const void* buffer, const void* gates, int64_t M,
                      void* grad_buffer, void* grad_gates) {
  using namespace dispatch_detail;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* gg = static_cast<T*>(grad_gates);
    // Dropped choices' gate gradients are zero; kept ones are written from their slots below.
    if (gg && r.N > 0 && r.k > 0) {
      using K = ZeroDroppedKernel<T>;
      launch.template run<K>(blocks_for(r.k * r.N, launch.threads), 0,
                             typename K::Params{r.loc, r.C, r.k * r.N, gg});
    }
    const int64_t slots = r.E * r.C;
    if (slots <= 0 || (!grad_buffer && !grad_gates)) return;
    with_width<T>(pack_width<T>(M, grad_out, buffer, grad_buffer), [&](auto width) {
      constexpr int V = decltype(width)::value;
      const T* go = static_cast<const T*>(grad_out);
      const T* g = static_cast<const T*>(gates);
      T* gb = static_cast<T*>(grad_buffer);
      if (gg) {
        gate_dots<T, V>(launch, {r.idx, r.loc, r.slot_map, r.N, r.C, M / V, true, 0, slots, go,
                                 static_cast<const T*>(buffer), gb, g, gg});
      } else if (M > 0) {
        slot_scale<T, V>(launch, r, go, g, M, gb);
      }
    });
  });
}

}  // namespace moe::kernels::gpu

#pragma once
// The CPU backend's dispatch (encode) and combine (decode) of docs/ROUTING.md, "Dispatch, experts,
// combine" and their backward passes, on host buffers. T is float, double, float16 or bfloat16;
// sums accumulate in acc_t<T>. Callers outside kernels/ use moe_kernels/backend.h.
//
//   x, grad_x, out, grad_out          [N, M]
//   buffer (D or Y), grad_buffer      [E, C, M]
//   gates, grad_gates                 [k, N]   (gates == nullptr means every weight is 1)
//   idx, loc                          [k, N]   from routing.h; loc >= C means dropped
//   slot_map                          [E, C]   from build_slot_map
// Kernels that write a [E, C, M] buffer run partitioned by slot (combine_backward writes each kept
// choice's gate gradient from the one slot that choice owns); those that write [N, M] run
// partitioned by token: no atomics, results independent of the thread count.
#include <cstdint>

#include "moe_kernels/backend.h"

namespace moe::kernels {

// D[e,s,:] = w * x[n] for the choice in slot (e,s); zero for unused slots.
template <typename T>
void dispatch_forward(const RoutingView& r, const T* x, const T* gates, int64_t M, T* buffer);

// out[n,:] = sum_j w * Y[idx_j[n], loc_j[n], :] over kept choices; zero if none kept.
template <typename T>
void combine_forward(const RoutingView& r, const T* buffer, const T* gates, int64_t M, T* out);

// Backward of dispatch: grad_x[n] = sum_j w * grad_D[slot]; grad_gates[j,n] = <grad_D[slot], x[n]>
// (zero for dropped choices). grad_x or grad_gates may be null to skip them.
template <typename T>
void dispatch_backward(const RoutingView& r, const T* grad_buffer, const T* x, const T* gates,
                       int64_t M, T* grad_x, T* grad_gates);

// Backward of combine: grad_Y[e,s] = w * grad_out[n] (zero for unused slots);
// grad_gates[j,n] = <grad_out[n], Y[slot]>. grad_buffer or grad_gates may be null.
template <typename T>
void combine_backward(const RoutingView& r, const T* grad_out, const T* buffer, const T* gates,
                      int64_t M, T* grad_buffer, T* grad_gates);

}  // namespace moe::kernels

#pragma once
// The kernels' one API: a Backend per device kind (cpu, cuda, hip), found at run time by the
// kind of the memory it works on, the way ggml-backend does it. Callers pass buffers that live on
// the backend's device and a stream (queue) to order the work on; they never see a backend's own
// headers. The math of every operation is docs/ROUTING.md's.
//
// Layouts (row-major, contiguous):
//   scores [N, E]; idx, loc, gates [k, N] (choice-major: idx[j * N + n] is token n's j-th choice);
//   counts [k, E] (c_j[e]); demand, kept [E]; slot_map [E, C];
//   x, grad_x, out, grad_out [N, M]; buffer (D or Y), grad_buffer [E, C, M].
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "moe_kernels/types.h"

namespace moe::kernels {

enum class DeviceKind { cpu, cuda, hip };
const char* device_kind_name(DeviceKind kind);

// Element types of scores, activations and gates. Routing scores are float32 or float64;
// dispatch/combine take every one a backend's supports() accepts, accumulating in float32
// (float64 for float64).
enum class DType { float32, float64, float16, bfloat16 };
size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);

// Calls f(T{}) with the element type of dtype (float, double, float16, bfloat16).
template <typename F>
void visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::float32:
      return f(float{});
    case DType::float64:
      return f(double{});
    case DType::float16:
      return f(float16{});
    case DType::bfloat16:
      return f(bfloat16{});
  }
  throw std::invalid_argument("moe_kernels: unknown element type");
}

// The DType of an element type (the inverse of visit_dtype).
template <typename T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<float>() {
  return DType::float32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::float64;
}
template <>
constexpr DType dtype_of<float16>() {
  return DType::float16;
}
template <>
constexpr DType dtype_of<bfloat16>() {
  return DType::bfloat16;
}

// The same for routing scores, which are float32 or float64: others are refused, naming `op`.
template <typename F>
void visit_score_dtype(DType dtype, const char* op, F&& f) {
  if (dtype == DType::float32) return f(float{});
  if (dtype == DType::float64) return f(double{});
  throw std::invalid_argument(std::string("moe_kernels::") + op +
                              ": scores must be float32 or float64, got " + dtype_name(dtype));
}

// A cudaStream_t / hipStream_t; nullptr is the device's default stream. The CPU backend finishes
// every call before it returns and ignores it.
using Stream = void*;

// The plan dispatch/combine follow; every pointer on the backend's device.
struct RoutingView {
  const int32_t* idx;
  const int32_t* loc;  // >= C: dropped
  const int64_t* slot_map;
  int64_t N, E, k, C;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  virtual DeviceKind device() const = 0;
  virtual bool supports(DType dtype) const = 0;
  // A device backend's kernels run on the host (tests only): backend_for never returns one.
  virtual bool emulated() const { return false; }

  // --- Memory on the device (host memory for cpu). copy_to_host waits for the stream.
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* ptr) = 0;
  virtual void copy_to_device(void* dst, const void* host_src, size_t bytes, Stream stream) = 0;
  virtual void copy_to_host(void* host_dst, const void* src, size_t bytes, Stream stream) = 0;
  virtual void synchronize(Stream stream) = 0;

  // --- Routing.
  // idx = each token's k largest scores (+ selection_bias [E] float32, nullable, for the choice
  // only); ties to the lower expert, NaN below every number. Needs 0 <= k <= E.
  virtual void topk_choices(DType dtype, const void* scores, int64_t N, int64_t E, int64_t k,
                            const float* selection_bias, int32_t* idx, Stream stream) = 0;
  // order = token indices by descending priority [N] (top-1 score), NaN last, ties lower first.
  virtual void priority_order(DType dtype, const void* priority, int64_t N, int64_t* order,
                              Stream stream) = 0;
  // loc of every choice and counts c_j[e]; token_order (nullable) is the claiming order.
  virtual void slot_locations(const int32_t* idx, int64_t N, int64_t E, int64_t k,
                              const int64_t* token_order, int32_t* loc, int64_t* counts,
                              Stream stream) = 0;
  // demand[e] = sum_j counts[j, e]; max_demand (nullable, one int64) = max_e demand[e], the one
  // figure dropless capacity needs on the host.
  virtual void demand_from_counts(const int64_t* counts, int64_t E, int64_t k, int64_t* demand,
                                  int64_t* max_demand, Stream stream) = 0;
  // kept[e] = min(demand[e], C).
  virtual void kept_counts(const int64_t* demand, int64_t E, int64_t C, int64_t* kept,
                           Stream stream) = 0;
  // slot_map[e, s] = j * N + n of the kept choice in slot s of expert e, else -1.
  virtual void build_slot_map(const int32_t* idx, const int32_t* loc, int64_t N, int64_t E,
                              int64_t k, int64_t C, int64_t* slot_map, Stream stream) = 0;

  // --- Dispatch and combine (gates nullable: every weight 1); see dispatch semantics in
  // docs/ROUTING.md, "Dispatch, experts, combine". grad outputs are nullable to skip them.
  // D[e,s] = w * x[n] of the choice in slot (e,s), zero for unused slots.
  virtual void dispatch_forward(DType dtype, const RoutingView& r, const void* x, const void* gates,
                                int64_t M, void* buffer, Stream stream) = 0;
  // out[n] = sum over kept choices j (in order) of w * Y[slot], zero if none kept.
  virtual void combine_forward(DType dtype, const RoutingView& r, const void* buffer,
                               const void* gates, int64_t M, void* out, Stream stream) = 0;
  // grad_x[n] = sum_j w * grad_D[slot]; grad_gates[j,n] = <grad_D[slot], x[n]> (0 if dropped).
  virtual void dispatch_backward(DType dtype, const RoutingView& r, const void* grad_buffer,
                                 const void* x, const void* gates, int64_t M, void* grad_x,
                                 void* grad_gates, Stream stream) = 0;
  // grad_Y[e,s] = w * grad_out[n] (0 for unused slots); grad_gates[j,n] = <grad_out[n], Y[slot]>.
  virtual void combine_backward(DType dtype, const RoutingView& r, const void* grad_out,
                                const void* buffer, const void* gates, int64_t M, void* grad_buffer,
                                void* grad_gates, Stream stream) = 0;

  // --- Host threads. The CPU backend runs its kernels on a pool of `threads()` workers that sleep
  // when idle; host work between kernels (the engine's per-row LibTorch calls) shares that pool
  // through parallel_for so the two never oversubscribe the cores. A device backend uses no
  // host threads: parallel_for runs fn(0, n) inline there.
  virtual void set_threads(int n) { (void)n; }  // 0: every core
  virtual int threads() const { return 1; }
  virtual void parallel_for(int64_t n, int64_t grain,
                            const std::function<void(int64_t, int64_t)>& fn) {
    (void)grain;
    if (n > 0) fn(0, n);
  }
};

// Other libraries' parallelism inside the CPU pool's chunks (the engine runs LibTorch's
// element-wise ops, OpenMP-parallel, inside chunks): `serial` makes the calling thread's library
// calls run on that thread alone and returns what `restore` needs to undo it. Null: nothing.
struct NestedParallelismHooks {
  int (*serial)() = nullptr;
  void (*restore)(int state) = nullptr;
};
void set_nested_parallelism_hooks(NestedParallelismHooks hooks);

// The backend for memory of this kind, or nullptr when this build has none or no device is
// present (emulated backends are never chosen). The cpu backend always exists.
Backend* backend_for(DeviceKind kind);
Backend& cpu_backend();
// Every backend registered in this process, cpu first (tests run each).
std::vector<Backend*> registered_backends();
// A backend compiled into this process adds itself (at static initialisation); the registry
// does not own it.
void register_backend(Backend* backend);

}  // namespace moe::kernels

#pragma once
// The kernel backends under test, with host-buffer signatures: each call copies its inputs (and
// its pre-filled outputs, so unwritten elements stay visible) to the backend's device, runs the
// backend, and copies the outputs back. One parametrised suite so checks every backend
// registered in this process (cpu, the host-emulated GPU backends, and CUDA/HIP where a device is
// present) against the naive reference and the CPU backend.
#include <moe_kernels/backend.h>

#include <functional>
#include <string>
#include <vector>

namespace moe::kernels::test {

template <typename T>
struct DispatchOps {
  std::function<void(const RoutingView&, const T*, const T*, int64_t, T*)> dispatch_forward;
  std::function<void(const RoutingView&, const T*, const T*, int64_t, T*)> combine_forward;
  std::function<void(const RoutingView&, const T*, const T*, const T*, int64_t, T*, T*)>
      dispatch_backward;
  std::function<void(const RoutingView&, const T*, const T*, const T*, int64_t, T*, T*)>
      combine_backward;
};

template <typename T>
struct RoutingOps {
  std::function<void(const T*, int64_t, int64_t, int64_t, const float*, int32_t*)> topk_choices;
  std::function<void(const T*, int64_t, int64_t*)> priority_order;
};

struct Backend {
  std::string name;
  kernels::Backend* device = nullptr;
  RoutingOps<float> routing_f32;
  RoutingOps<double> routing_f64;
  std::function<void(const int32_t*, int64_t, int64_t, int64_t, const int64_t*, int32_t*, int64_t*)>
      slot_locations;
  std::function<void(const int32_t*, const int32_t*, int64_t, int64_t, int64_t, int64_t, int64_t*)>
      build_slot_map;
  std::function<void(const int64_t*, int64_t, int64_t, int64_t*, int64_t*)> demand_from_counts;
  std::function<void(const int64_t*, int64_t, int64_t, int64_t*)> kept_counts;
  DispatchOps<float> f32;
  DispatchOps<double> f64;
  DispatchOps<float16> f16;
  DispatchOps<bfloat16> bf16;
  // Host threads the backend may use (0: default). A no-op where it means nothing.
  std::function<void(int)> set_threads;

  template <typename T>
  const DispatchOps<T>& ops() const;
  template <typename T>
  const RoutingOps<T>& routing() const;
};

template <>
inline const DispatchOps<float>& Backend::ops<float>() const {
  return f32;
}
template <>
inline const DispatchOps<double>& Backend::ops<double>() const {
  return f64;
}
template <>
inline const DispatchOps<float16>& Backend::ops<float16>() const {
  return f16;
}
template <>
inline const DispatchOps<bfloat16>& Backend::ops<bfloat16>() const {
  return bf16;
}
template <>
inline const RoutingOps<float>& Backend::routing<float>() const {
  return routing_f32;
}
template <>
inline const RoutingOps<double>& Backend::routing<double>() const {
  return routing_f64;
}

// Names of the backends available in this build on this machine ("cpu" first).
std::vector<std::string> backend_names();
const Backend& backend(const std::string& name);

}  // namespace moe::kernels::test

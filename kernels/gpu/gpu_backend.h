#pragma once
// One Backend for every GPU-shaped device, written once over a `Device`: the CUDA and HIP builds
// instantiate it with DeviceRuntime (device_runtime.h, the runtime API through portable names),
// the tests with HostDevice (host_device.h, the emulation). The operations themselves are free
// function templates in routing_ops.h and dispatch_ops.h; this file only forwards to them.
//
// A Device provides
//   template <class Kernel> static void launch(int64_t blocks, int threads, size_t shared_bytes,
//                                              Stream, const typename Kernel::Params&);
//   static void* allocate(size_t); static void release(void*);
//   static void copy_to_device(void*, const void*, size_t, Stream);
//   static void copy_to_host(void*, const void*, size_t, Stream);   // waits for the stream
//   static void synchronize(Stream);
#include <mutex>
#include <string>

#include "dispatch_ops.h"
#include "moe_kernels/backend.h"
#include "routing_ops.h"
#include "scratch.h"

namespace moe::kernels::gpu {

template <typename Device>
class GpuBackend final : public Backend {
 public:
  GpuBackend(std::string name, DeviceKind kind, bool emulated, int block_threads)
      : name_(std::move(name)), kind_(kind), emulated_(emulated), threads_(block_threads) {}

  const char* name() const override { return name_.c_str(); }
  DeviceKind device() const override { return kind_; }
  bool emulated() const override { return emulated_; }
  bool supports(DType) const override { return true; }

  void* allocate(size_t bytes) override { return Device::allocate(bytes); }
  void release(void* p) override { Device::release(p); }
  void copy_to_device(void* dst, const void* src, size_t bytes, Stream s) override {
    Device::copy_to_device(dst, src, bytes, s);
  }
  void copy_to_host(void* dst, const void* src, size_t bytes, Stream s) override {
    Device::copy_to_host(dst, src, bytes, s);
  }
  void synchronize(Stream s) override { Device::synchronize(s); }

  void topk_choices(DType dt, const void* scores, int64_t N, int64_t E, int64_t k,
                    const float* bias, int32_t* idx, Stream s) override {
    gpu::topk_choices<Device>(launch(s), dt, scores, N, E, k, bias, idx);
  }
  void priority_order(DType dt, const void* priority, int64_t N, int64_t* order,
                      Stream s) override {
    gpu::priority_order<Device>(launch(s), dt, priority, N, order);
  }
  void slot_locations(const int32_t* idx, int64_t N, int64_t E, int64_t k,
                      const int64_t* token_order, int32_t* loc, int64_t* counts,
                      Stream s) override {
    gpu::slot_locations<Device>(launch(s), idx, N, E, k, token_order, loc, counts);
  }
  void demand_from_counts(const int64_t* counts, int64_t E, int64_t k, int64_t* demand,
                          int64_t* max_demand, Stream s) override {
    gpu::demand_from_counts<Device>(launch(s), counts, E, k, demand, max_demand);
  }
  void kept_counts(const int64_t* demand, int64_t E, int64_t C, int64_t* kept, Stream s) override {
    gpu::kept_counts<Device>(launch(s), demand, E, C, kept);
  }
  void build_slot_map(const int32_t* idx, const int32_t* loc, int64_t N, int64_t E, int64_t k,
                      int64_t C, int64_t* slot_map, Stream s) override {
    gpu::build_slot_map<Device>(launch(s), idx, loc, N, E, k, C, slot_map);
  }

  void dispatch_forward(DType dt, const RoutingView& r, const void* x, const void* gates, int64_t M,
                        void* buffer, Stream s) override {
    gpu::dispatch_forward<Device>(launch(s), dt, r, x, gates, M, buffer);
  }
  void combine_forward(DType dt, const RoutingView& r, const void* buffer, const void* gates,
                       int64_t M, void* out, Stream s) override {
    gpu::combine_forward<Device>(launch(s), dt, r, buffer, gates, M, out);
  }
  void dispatch_backward(DType dt, const RoutingView& r, const void* grad_buffer, const void* x,
                         const void* gates, int64_t M, void* grad_x, void* grad_gates,
                         Stream s) override {
    gpu::dispatch_backward<Device>(launch(s), dt, r, grad_buffer, x, gates, M, grad_x, grad_gates);
  }
  void combine_backward(DType dt, const RoutingView& r, const void* grad_out, const void* buffer,
                        const void* gates, int64_t M, void* grad_buffer, void* grad_gates,
                        Stream s) override {
    gpu::combine_backward<Device>(launch(s), dt, r, grad_out, buffer, gates, M, grad_buffer,
                                  grad_gates);
  }

 private:
  Launch<Device> launch(Stream s) { return Launch<Device>{threads_, s, &scratch_}; }

  std::string name_;
  DeviceKind kind_;
  bool emulated_;
  int threads_;
  Scratch<Device> scratch_;
};

}  // namespace moe::kernels::gpu

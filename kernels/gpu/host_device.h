#pragma once
// The Device of the host emulation (tests only): host memory, kernels through host_launch.
#include <cstdlib>
#include <cstring>
#include <new>

#include "host_launcher.h"
#include "moe_kernels/backend.h"

namespace moe::kernels::gpu {

struct HostDevice {
  template <typename Kernel>
  static void launch(int64_t blocks, int threads, size_t shared_bytes, Stream,
                     const typename Kernel::Params& params) {
    host_launch<Kernel>(blocks, threads, shared_bytes, params);
  }
  static void* allocate(size_t bytes) {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) throw std::bad_alloc();
    return p;
  }
  static void release(void* p) { std::free(p); }
  static void copy_to_device(void* dst, const void* src, size_t bytes, Stream) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void copy_to_host(void* dst, const void* src, size_t bytes, Stream) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void synchronize(Stream) {}
};

}  // namespace moe::kernels::gpu

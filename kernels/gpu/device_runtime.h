#pragma once
// The Device of real GPUs, written once for CUDA and HIP: the runtime calls go through the moe*
// names below, which are the cuda* functions under nvcc and the hip* ones under hipcc (the two
// APIs match call for call here). Include it only from a source that nvcc or hipcc compiles.
//
// The runtime header comes first: types.h's device code (__float_as_uint) needs its declarations.
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define MOE_RUNTIME_PREFIX "hip"
#define moeError_t hipError_t
#define moeSuccess hipSuccess
#define moeStream_t hipStream_t
#define moeGetErrorString hipGetErrorString
#define moeGetLastError hipGetLastError
#define moeGetDeviceCount hipGetDeviceCount
#define moeMalloc hipMalloc
#define moeFree hipFree
#define moeMemcpyAsync hipMemcpyAsync
#define moeMemcpyHostToDevice hipMemcpyHostToDevice
#define moeMemcpyDeviceToHost hipMemcpyDeviceToHost
#define moeStreamSynchronize hipStreamSynchronize
#define moeFuncSetAttribute hipFuncSetAttribute
#define moeFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
// What freeing memory returns once the runtime is torn down at process exit.
#define moeErrorShuttingDown hipErrorDeinitialized
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#define MOE_RUNTIME_PREFIX "cuda"
#define moeError_t cudaError_t
#define moeSuccess cudaSuccess
#define moeStream_t cudaStream_t
#define moeGetErrorString cudaGetErrorString
#define moeGetLastError cudaGetLastError
#define moeGetDeviceCount cudaGetDeviceCount
#define moeMalloc cudaMalloc
#define moeFree cudaFree
#define moeMemcpyAsync cudaMemcpyAsync
#define moeMemcpyHostToDevice cudaMemcpyHostToDevice
#define moeMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define moeStreamSynchronize cudaStreamSynchronize
#define moeFuncSetAttribute cudaFuncSetAttribute
#define moeFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define moeErrorShuttingDown cudaErrorCudartUnloading
#else
#error "device_runtime.h needs nvcc or hipcc; the host emulation uses host_device.h"
#endif

#include <cstddef>
#include <stdexcept>
#include <string>

#include "moe_kernels/backend.h"
#include "portable.h"

namespace moe::kernels::gpu {

// Throws std::runtime_error naming the call (`call` without the cuda/hip prefix) and the
// runtime's message unless `error` is success.
inline void check_runtime(moeError_t error, const char* call) {
  if (error != moeSuccess) {
    throw std::runtime_error(std::string(MOE_RUNTIME_PREFIX) + call +
                             " failed: " + moeGetErrorString(error));
  }
}

// One block of kernel K: its phases in order, a block-wide barrier between two. Local starts
// zeroed in every thread, as in the host launcher.
template <class K>
__global__ void kernel_entry(typename K::Params p) {
  extern __shared__ __align__(16) unsigned char moe_shared[];
  typename K::Local local{};
  const Thread t{static_cast<int64_t>(blockIdx.x), static_cast<int>(threadIdx.x),
                 static_cast<int>(blockDim.x), static_cast<int64_t>(gridDim.x)};
  for (int phase = 0; phase < K::kPhases; ++phase) {
    if (phase > 0) __syncthreads();
    K::run(phase, t, p, local, moe_shared);
  }
}

struct DeviceRuntime {
  template <typename K>
  static void launch(int64_t blocks, int threads, size_t shared_bytes, Stream stream,
                     const typename K::Params& params) {
    // Above 48 KiB of dynamic shared memory a kernel must opt in (on both vendors' runtimes).
    constexpr size_t kDefaultSharedLimit = 48 * 1024;
    if (shared_bytes > kDefaultSharedLimit) {
      check_runtime(moeFuncSetAttribute(reinterpret_cast<const void*>(&kernel_entry<K>),
                                        moeFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes)),
                    "FuncSetAttribute(MaxDynamicSharedMemorySize)");
    }
    kernel_entry<K><<<dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads)),
                      shared_bytes, static_cast<moeStream_t>(stream)>>>(params);
    check_runtime(moeGetLastError(), "LaunchKernel");
  }

  static void* allocate(size_t bytes) {
    void* p = nullptr;
    // At least one byte, as the host device does: a zero-byte buffer still gets its own address.
    check_runtime(moeMalloc(&p, bytes ? bytes : 1), "Malloc");
    return p;
  }
  static void release(void* p) {
    const moeError_t error = moeFree(p);
    // Static backends free their scratch at exit, possibly after the runtime itself has gone (the
    // memory went with it); throwing from that destructor would abort the process.
    if (error == moeErrorShuttingDown) return;
    check_runtime(error, "Free");
  }
  static void copy_to_device(void* dst, const void* src, size_t bytes, Stream stream) {
    if (!bytes) return;
    check_runtime(
        moeMemcpyAsync(dst, src, bytes, moeMemcpyHostToDevice, static_cast<moeStream_t>(stream)),
        "MemcpyAsync(host to device)");
  }
  static void copy_to_host(void* dst, const void* src, size_t bytes, Stream stream) {
    if (bytes) {
      check_runtime(
          moeMemcpyAsync(dst, src, bytes, moeMemcpyDeviceToHost, static_cast<moeStream_t>(stream)),
          "MemcpyAsync(device to host)");
    }
    synchronize(stream);
  }
  static void synchronize(Stream stream) {
    check_runtime(moeStreamSynchronize(static_cast<moeStream_t>(stream)), "StreamSynchronize");
  }
};

}  // namespace moe::kernels::gpu

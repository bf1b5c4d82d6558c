// The GPU backend of this build: nvcc compiles this file into the "cuda" backend, hipcc (-x hip)
// into the "hip" one. Linking the object in is all it takes: the backend registers itself at
// static initialisation, and only where a device is there to run it, so a binary built with GPU
// support still runs (on the CPU backend) on a machine without a GPU or without its driver.
#include "device_runtime.h"
#include "gpu_backend.h"

namespace moe::kernels::gpu {
namespace {

#if defined(__HIPCC__)
constexpr const char* kBackendName = "hip";
constexpr DeviceKind kBackendKind = DeviceKind::hip;
#else
constexpr const char* kBackendName = "cuda";
constexpr DeviceKind kBackendKind = DeviceKind::cuda;
#endif

// No device and no driver (or a driver too old for this runtime) both answer with an error here,
// which means the same: nothing to register.
bool device_present() {
  int count = 0;
  const moeError_t error = moeGetDeviceCount(&count);
  if (error != moeSuccess) {
    (void)moeGetLastError();  // leave no error behind for the next runtime call to report
    return false;
  }
  return count > 0;
}

const bool registered = [] {
  if (!device_present()) return false;
  static GpuBackend<DeviceRuntime> backend(kBackendName, kBackendKind, /*emulated=*/false,
                                           kBlockThreads);
  register_backend(&backend);
  return true;
}();

}  // namespace
}  // namespace moe::kernels::gpu

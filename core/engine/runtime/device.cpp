#include "runtime/device.h"

#include "moe_kernels/backend.h"

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#ifdef MOE_ENGINE_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAFunctions.h>
#include <torch/cuda.h>
#endif

namespace moe::runtime {

bool cuda_build() {
#ifdef MOE_ENGINE_CUDA
  return true;
#else
  return false;
#endif
}

std::string cuda_unavailable_reason() {
  if (!cuda_build()) {
    return "this moe-train is a CPU-only build (its LibTorch has no CUDA; see README, GPU builds)";
  }
  if (!torch::cuda::is_available()) {
    return "no CUDA device is visible (built with CUDA " + cuda_built_version() + ")";
  }
  if (!kernels::backend_for(kernels::DeviceKind::cuda)) {
    return "the MoE kernels' CUDA backend found no device it can use (driver older than the "
           "CUDA runtime it was built with?)";
  }
  return {};
}

int64_t cuda_device_count() {
  if (!cuda_build() || !torch::cuda::is_available()) return 0;
  return static_cast<int64_t>(torch::cuda::device_count());
}

std::string cuda_built_version() {
  if (!cuda_build()) return {};
  // CUDART_VERSION of LibTorch's own CUDA library, e.g. 13020; no device needed.
  const long v = at::detail::getCUDAHooks().versionCUDART();
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string engine_version_text(const std::string& engine_version) {
  std::string text = "moe-train " + engine_version + "\nLibTorch " + TORCH_VERSION;
  if (!cuda_build())
    return text + ", CPU only (no CUDA built in)\nCUDA devices: none (CPU-only build)";
  text += ", CUDA " + cuda_built_version() + " built in\nCUDA devices: ";
#ifdef MOE_ENGINE_CUDA
  const int64_t count = cuda_device_count();
  if (count == 0) return text + "none visible";
  text += std::to_string(count);
  for (int64_t i = 0; i < count; ++i) {
    const cudaDeviceProp* p = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(i));
    text += std::string(i == 0 ? " (" : ", ") + std::to_string(i) + ": " + p->name + ", sm_" +
            std::to_string(p->major) + std::to_string(p->minor) + ", " +
            std::to_string(p->totalGlobalMem >> 30) + " GiB";
  }
  text += ")";
#endif
  return text;
}

at::Device compute_device(const std::string& device, int64_t local_rank) {
  if (device != "cuda") return at::Device(at::kCPU);
  const int64_t count = static_cast<int64_t>(torch::cuda::device_count());
  TORCH_CHECK(count > 0, "train.device \"cuda\": ", cuda_unavailable_reason());
  const at::Device d(at::kCUDA, static_cast<c10::DeviceIndex>(local_rank % count));
#ifdef MOE_ENGINE_CUDA
  // The rank's GPU becomes the current device: kernels, allocations, NCCL's communicator and
  // LibTorch's current stream all follow it.
  c10::cuda::set_device(d.index());
#endif
  return d;
}

void synchronize(const at::Device& device) {
#ifdef MOE_ENGINE_CUDA
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
#else
  (void)device;
#endif
}

}  // namespace moe::runtime

#include "runtime/device.h"

#include "moe_kernels/backend.h"

#ifdef MOE_ENGINE_CUDA
#include <torch/cuda.h>
#endif

namespace moe {

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
  if (!torch::cuda::is_available()) return "LibTorch sees no CUDA device on this machine";
  if (!kernels::backend_for(kernels::DeviceKind::cuda)) {
    return "the MoE kernels' CUDA backend found no device it can use (driver older than the "
           "CUDA runtime it was built with?)";
  }
  return {};
}

at::Device compute_device(const std::string& device, int64_t local_rank) {
  if (device != "cuda") return at::Device(at::kCPU);
  const int64_t count = static_cast<int64_t>(torch::cuda::device_count());
  TORCH_CHECK(count > 0, "train.device \"cuda\": ", cuda_unavailable_reason());
  return at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(local_rank % count));
}

void synchronize(const at::Device& device) {
#ifdef MOE_ENGINE_CUDA
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
#else
  (void)device;
#endif
}

}  // namespace moe

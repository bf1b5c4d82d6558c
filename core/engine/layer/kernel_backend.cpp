#include "layer/kernel_backend.h"

#ifdef MOE_ENGINE_CUDA
#include <c10/cuda/CUDAStream.h>
#endif

namespace moe::layer {

kernels::Backend& kernel_backend(const at::Tensor& t) {
  if (t.device().is_cpu()) return kernels::cpu_backend();
  kernels::Backend* b = nullptr;
  if (t.is_cuda()) {
    // A ROCm LibTorch calls its devices cuda too; the HIP backend serves them.
    b = kernels::backend_for(kernels::DeviceKind::cuda);
    if (!b) b = kernels::backend_for(kernels::DeviceKind::hip);
  }
  TORCH_CHECK(
      b, "no MoE kernels for device ", t.device(), " in this build (its kernel backends: ",
      [] {
        std::string names;
        for (auto* be : kernels::registered_backends()) {
          names += (names.empty() ? "" : ", ") + std::string(be->name());
        }
        return names;
      }(),
      ")");
  return *b;
}

kernels::Stream kernel_stream(const at::Tensor& t) {
#ifdef MOE_ENGINE_CUDA
  if (t.is_cuda()) return c10::cuda::getCurrentCUDAStream(t.device().index()).stream();
#endif
  (void)t;
  return nullptr;
}

kernels::DType kernel_dtype(at::ScalarType t) {
  switch (t) {
    case at::kFloat:
      return kernels::DType::float32;
    case at::kDouble:
      return kernels::DType::float64;
    case at::kHalf:
      return kernels::DType::float16;
    case at::kBFloat16:
      return kernels::DType::bfloat16;
    default:
      TORCH_CHECK(false, "MoE kernels support float32, float64, float16 and bfloat16, got ", t);
  }
}

}  // namespace moe::layer

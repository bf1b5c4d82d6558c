#pragma once
// CUDA autocast switches: LibTorch 2.4 replaced the device-specific ones of 1.13 with ones that
// take the device type. The engine calls these, never LibTorch's directly.
#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace moe {

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
inline bool cuda_autocast_enabled() {
  return at::autocast::is_autocast_enabled(at::kCUDA);
}
inline void set_cuda_autocast(bool enabled, at::ScalarType dtype) {
  at::autocast::set_autocast_dtype(at::kCUDA, dtype);
  at::autocast::set_autocast_enabled(at::kCUDA, enabled);
}
#else
inline bool cuda_autocast_enabled() {
  return at::autocast::is_enabled();
}
inline void set_cuda_autocast(bool enabled, at::ScalarType dtype) {
  at::autocast::set_autocast_gpu_dtype(dtype);
  at::autocast::set_enabled(enabled);
}
#endif

}  // namespace moe

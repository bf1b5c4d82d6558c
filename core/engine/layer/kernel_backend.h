#pragma once
// The kernels' backend for a tensor: chosen by the tensor's device (cpu, or the GPU backend this
// build registered), with the stream LibTorch is using for that device, so kernel launches are
// ordered with LibTorch's own work and no synchronisation is needed between them. Callers hold a
// c10::DeviceGuard of the tensor's device around a kernel call: the GPU backends launch, and
// allocate their scratch, on the current device, which on a multi-GPU host may be another one.
#include <torch/torch.h>

#include "moe_kernels/backend.h"

namespace moe::layer {

// Throws (c10::Error) when this build has no kernels for the tensor's device.
kernels::Backend& kernel_backend(const at::Tensor& t);
// The current stream of the tensor's device; null (the CPU's, or a default stream) otherwise.
kernels::Stream kernel_stream(const at::Tensor& t);
// float32, float64, float16 and bfloat16; throws for others.
kernels::DType kernel_dtype(at::ScalarType t);

// Typed pointer to a tensor's data on its device; null for an undefined tensor.
template <typename T>
T* device_ptr(const at::Tensor& t) {
  return t.defined() ? static_cast<T*>(t.data_ptr()) : nullptr;
}

}  // namespace moe::layer

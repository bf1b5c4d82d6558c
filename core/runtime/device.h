#pragma once
// The device this process computes on. CUDA is usable when the engine was built against a CUDA
// LibTorch (MOE_ENGINE_CUDA), LibTorch sees a device, and the kernels registered their CUDA
// backend (which needs a driver new enough for the CUDA runtime they were built with).
#include <torch/torch.h>

#include <string>

namespace moe {

// Whether this engine was built with CUDA (MOE_ENGINE_CUDA).
bool cuda_build();
// Empty when CUDA can be used here, else why not (for messages).
std::string cuda_unavailable_reason();

// The device of local rank `local_rank` for a resolved train.device ("cpu" or "cuda"): ranks on
// one machine take devices round-robin.
at::Device compute_device(const std::string& device, int64_t local_rank);

// Waits until the device has finished the work queued so far (nothing to wait for on the CPU):
// host clocks around device work measure it only after this.
void synchronize(const at::Device& device);

}  // namespace moe

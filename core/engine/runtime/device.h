#pragma once
// The device this process computes on. CUDA is usable when the engine was built against a CUDA
// LibTorch (MOE_ENGINE_CUDA), LibTorch sees a device, and the kernels registered their CUDA
// backend (which needs a driver new enough for the CUDA runtime they were built with).
#include <torch/torch.h>

#include <string>

namespace moe::runtime {

// Whether this engine was built with CUDA (MOE_ENGINE_CUDA).
bool cuda_build();
// Empty when CUDA can be used here, else why not (for messages).
std::string cuda_unavailable_reason();
// CUDA devices this process sees (0 in a CPU-only build).
int64_t cuda_device_count();
// The CUDA runtime version LibTorch was built with ("13.2"); empty in a CPU-only build.
std::string cuda_built_version();
// What `moe-train --version` prints: the engine's and LibTorch's versions, whether CUDA is built
// in (and which), and the CUDA devices this process sees.
std::string engine_version_text(const std::string& engine_version);

// The device of local rank `local_rank` for a resolved train.device ("cpu" or "cuda"): ranks on
// one machine take devices round-robin (unsupported_here refuses more NCCL ranks than GPUs). A
// CUDA device becomes the process's current device.
at::Device compute_device(const std::string& device, int64_t local_rank);

// Waits until the device has finished the work queued so far (nothing to wait for on the CPU):
// host clocks around device work measure it only after this.
void synchronize(const at::Device& device);

}  // namespace moe::runtime

#include "train/engine_support.h"

#include <algorithm>
#include <thread>

#include "protocol/parallel_layout.h"

namespace moe::train {

std::vector<protocol::ConfigProblem> unsupported_here(const protocol::RunConfig& config,
                                                      int64_t world) {
  std::vector<protocol::ConfigProblem> problems = protocol::layout_problems(config, world);
  // This build's kernels are CPU only (a CUDA backend comes with a CUDA LibTorch build).
  if (config.train.device == "cuda") {
    problems.push_back(
        {"/train/device", "\"cuda\" is not available: this moe-train is a CPU-only build"});
  }
  if (config.train.dtype == "float16" && !cuda_build()) {
    problems.push_back({"/train/dtype",
                        "\"float16\" needs CUDA (with dynamic loss scaling); this moe-train is a "
                        "CPU-only build: use \"bfloat16\" or \"float32\" with train.amp"});
  }
  return problems;
}

bool cuda_build() {
#ifdef MOE_ENGINE_CUDA
  return true;
#else
  return false;
#endif
}

std::string resolved_device(const protocol::RunConfig& config) {
  return config.train.device == "auto" ? "cpu" : config.train.device;
}

int resolved_threads(const protocol::RunConfig& config, int64_t local_ranks) {
  if (config.train.threads > 0) return static_cast<int>(config.train.threads);
  const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::max<int64_t>(1, cores / std::max<int64_t>(1, local_ranks)));
}

}  // namespace moe::train

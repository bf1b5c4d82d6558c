#include "train/engine_support.h"

#include <thread>

namespace moe::train {

std::vector<protocol::ConfigProblem> unsupported_here(const protocol::RunConfig& config) {
  std::vector<protocol::ConfigProblem> problems;
  // This build's kernels are CPU only (a CUDA backend comes with a CUDA LibTorch build).
  if (config.train.device == "cuda") {
    problems.push_back(
        {"/train/device", "\"cuda\" is not available: this moe-train is a CPU-only build"});
  }
  if (config.train.dtype == "float16") {
    problems.push_back({"/train/dtype",
                        "\"float16\" needs CUDA (with dynamic loss scaling); this moe-train is a "
                        "CPU-only build: use \"bfloat16\" or \"float32\" with train.amp"});
  }
  if (config.parallel.nproc > 1) {
    problems.push_back(
        {"/parallel/nproc", "this moe-train runs single-process training only, got " +
                                std::to_string(config.parallel.nproc)});
  }
  return problems;
}

std::string resolved_device(const protocol::RunConfig& config) {
  return config.train.device == "auto" ? "cpu" : config.train.device;
}

int resolved_threads(const protocol::RunConfig& config) {
  if (config.train.threads > 0) return static_cast<int>(config.train.threads);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace moe::train

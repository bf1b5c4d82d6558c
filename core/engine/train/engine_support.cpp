#include "train/engine_support.h"

#include <algorithm>
#include <thread>

#include "protocol/parallel_layout.h"
#include "runtime/device.h"

namespace moe::train {

std::vector<protocol::ConfigProblem> unsupported_here(const protocol::RunConfig& config,
                                                      int64_t world, int64_t local_ranks) {
  std::vector<protocol::ConfigProblem> problems = protocol::layout_problems(config, world);
  const std::string why_not_cuda = runtime::cuda_unavailable_reason();
  if (config.train.device == protocol::Device::Cuda && !why_not_cuda.empty()) {
    problems.push_back({"/train/device", "\"cuda\" is not available: " + why_not_cuda});
  }
  // NCCL runs one rank per GPU: two ranks on one device would share it and deadlock or fail in
  // NCCL's own set-up, long after start.
  const protocol::Backend backend = config.parallel.backend;
  const int64_t gpus = runtime::cuda_device_count();
  if (world > 1 && why_not_cuda.empty() && resolved_device(config) == "cuda" &&
      (backend == protocol::Backend::Nccl || backend == protocol::Backend::Auto) &&
      local_ranks > gpus) {
    problems.push_back(
        {"/parallel/backend", std::to_string(local_ranks) + " ranks on this machine but " +
                                  std::to_string(gpus) + " CUDA device" + (gpus == 1 ? "" : "s") +
                                  " visible: NCCL needs a GPU for each rank (start at most " +
                                  std::to_string(gpus) + " ranks per machine)"});
  }
  if (config.train.dtype == protocol::Dtype::Float16 && resolved_device(config) != "cuda") {
    problems.push_back(
        {"/train/dtype",
         "\"float16\" trains on CUDA only (with dynamic loss scaling), and " +
             (why_not_cuda.empty() ? std::string("train.device is \"cpu\"") : why_not_cuda) +
             ": use \"bfloat16\" or \"float32\" with train.amp"});
  }
  return problems;
}

std::string resolved_device(const protocol::RunConfig& config) {
  if (config.train.device != protocol::Device::Auto) return to_string(config.train.device);
  return runtime::cuda_unavailable_reason().empty() ? "cuda" : "cpu";
}

int resolved_threads(const protocol::RunConfig& config, int64_t local_ranks) {
  if (config.train.threads > 0) return static_cast<int>(config.train.threads);
  const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::max<int64_t>(1, cores / std::max<int64_t>(1, local_ranks)));
}

}  // namespace moe::train

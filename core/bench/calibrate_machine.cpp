#include "bench/calibrate_machine.h"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "bench/timing.h"
#include "plan/op_counts.h"
#include "runtime/device.h"
#include "train/grad_clip.h"
#include "train/optimizer.h"

#ifdef MOE_ENGINE_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <torch/cuda.h>
#endif

namespace moe::bench {
namespace {

// The value after "key" and its colon on the first line of `path` that starts with key.
std::string proc_field(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? std::string() : line.substr(begin);
  }
  return {};
}

// "16384 kB" -> bytes; 0 when absent.
double kib_field(const std::string& path, const std::string& key) {
  const std::string value = proc_field(path, key);
  return value.empty() ? 0 : std::stod(value) * 1024.0;
}

}  // namespace

MachineFacts machine_facts() {
  MachineFacts m;
  char host[256] = {};
  m.hostname = gethostname(host, sizeof host - 1) == 0 ? host : "unknown host";
  m.cpu_model = proc_field("/proc/cpuinfo", "model name");
  if (m.cpu_model.empty()) m.cpu_model = "unknown CPU";
  m.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  m.memory_bytes = kib_field("/proc/meminfo", "MemTotal");
  return m;
}

ComputeDeviceFacts compute_device_facts(const std::string& resolved_device,
                                        const MachineFacts& machine) {
  ComputeDeviceFacts d;
  d.device = runtime::compute_device(resolved_device, 0);
  d.name = machine.cpu_model;
  d.memory_bytes = machine.memory_bytes;
#ifdef MOE_ENGINE_CUDA
  if (d.device.is_cuda()) {
    const auto* props = at::cuda::getDeviceProperties(d.device.index());
    d.name = props->name;
    d.memory_bytes = static_cast<double>(props->totalGlobalMem);
    d.count = static_cast<int64_t>(torch::cuda::device_count());
  }
#endif
  return d;
}

double resident_bytes() {
  return kib_field("/proc/self/status", "VmRSS");
}

// Element-wise work as the engine does it: its own AdamW step (core/engine/train/optimizer.cpp) and
// the gradient norm before it, on parameters far larger than the caches. Bytes = the passes over a
// parameter the planner counts for them (plan::kAdamPasses), so that an optimizer phase is
// predicted at what this measures; the activations' and norms' element-wise work is of the same
// kind (fresh temporaries, lerp/addcmul/sqrt kernels), and ran at about half the rate of plain
// products and sums here.
double elementwise_bandwidth(const at::Device& device, bool quick) {
  const int64_t n = ((quick ? 16ll : 64ll) << 20) / 4, tensors = 4;
  auto opt = at::TensorOptions().dtype(at::kFloat).device(device);
  std::vector<train::NamedParameter> params;
  std::vector<at::Tensor> weights;
  for (int64_t i = 0; i < tensors; ++i) {
    auto w = at::rand({n / tensors}, opt).requires_grad_(true);
    w.mutable_grad() = at::rand({n / tensors}, opt);
    params.push_back({"w" + std::to_string(i), w});
    weights.push_back(w);
  }
  protocol::TrainConfig adamw;
  adamw.optimizer = protocol::Optimizer::AdamW;
  adamw.weight_decay = 0;
  auto optimizer = train::make_optimizer(adamw, params);
  TimingOptions timing{1, quick ? 3 : 5, quick ? 0.05 : 0.5};
  const double ms = median_ms(timing, [&] {
    optimizer->step(1e-6 / (1.0 + train::squared_grad_norm(weights).item<double>()));
    runtime::synchronize(device);
  });
  return plan::kAdamPasses * 4.0 * static_cast<double>(n) / (ms / 1e3);
}

// One tensor operation as the engine's layers make them: out of place on a few thousand
// elements that autograd records (graph node, allocation, the intra-op pool's hand-off), small
// enough that the arithmetic itself is negligible.
double op_overhead_s(const at::Device& device, bool quick) {
  auto opt = at::TensorOptions().dtype(at::kFloat).device(device);
  auto a = at::ones({4096}, opt.requires_grad(true)), b = at::full({4096}, 1.0001, opt);
  const int ops = quick ? 500 : 2000;
  TimingOptions timing{1, quick ? 3 : 7, quick ? 0.02 : 0.2};
  const double ms = median_ms(timing, [&] {
    at::Tensor x = a;
    for (int i = 0; i < ops; i += 2) x = at::mul(at::add(x, b), b);
    runtime::synchronize(device);
  });
  return ms / 1e3 / ops;
}

}  // namespace moe::bench

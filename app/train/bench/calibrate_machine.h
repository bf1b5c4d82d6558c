#pragma once
// The machine's facts and its memory-bound figures for the calibrated profile: CPU model, cores,
// memory, the device the engine computes on, copy bandwidth, the cost of one small tensor
// operation and what the process holds once LibTorch runs.
#include <torch/torch.h>

#include <string>

namespace moe::train {

struct MachineFacts {
  std::string hostname, cpu_model;  // cpu_model: /proc/cpuinfo "model name"
  int cores = 1;
  double memory_bytes = 0;  // /proc/meminfo MemTotal
};
MachineFacts machine_facts();

// The device a rank computes on for a resolved train.device ("cpu" or "cuda"): its name, how
// many a node has (ranks on the CPU share one) and its memory.
struct ComputeDeviceFacts {
  at::Device device = at::kCPU;
  std::string name;
  int64_t count = 1;
  double memory_bytes = 0;
};
ComputeDeviceFacts compute_device_facts(const std::string& resolved_device,
                                        const MachineFacts& machine);

// This process's resident set now (/proc/self/status VmRSS), bytes.
double resident_bytes();

// Bytes per second through a large copy_ (read + write counted).
double copy_bandwidth(const at::Device& device, bool quick);
// Seconds of one small tensor operation (an add or a mul on 64 elements) through LibTorch.
double op_overhead_s(const at::Device& device, bool quick);

}  // namespace moe::train

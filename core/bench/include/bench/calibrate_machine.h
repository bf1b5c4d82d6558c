#pragma once
// The machine's facts and its memory-bound figures for the calibrated profile: CPU model, cores,
// memory, the device the engine computes on, element-wise bandwidth, the cost of one small tensor
// operation and what the process holds once LibTorch runs.
#include <torch/torch.h>

#include <string>

namespace moe::bench {

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

// Bytes/s of element-wise work (products, sums, square roots, an in-place update) on large
// tensors: what the planner's memory-bound phases move at.
double elementwise_bandwidth(const at::Device& device, bool quick);
// Seconds of one tensor operation on 4096 elements that autograd records, through LibTorch.
double op_overhead_s(const at::Device& device, bool quick);

}  // namespace moe::bench

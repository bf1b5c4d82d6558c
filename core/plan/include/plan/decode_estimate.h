// Predicted decode speed and inference memory of a decoder on a hardware profile
// (docs/PLANNER.md, "Decode"): one decode step of `batch` sequences, each with `context` positions
// in its KV cache, on `devices` devices that share the weights and the cache evenly (experts
// spread by expert parallelism, the rest by tensor parallelism; their communication is not
// counted). A step reads every dense weight, the experts the batch's tokens choose and every
// sequence's cache, and computes 2 FLOPs per multiply-add of the active weights and the
// attention over the context: its time is the larger of the two (a roofline), plus the tensor
// operations' fixed cost.
#pragma once

#include <cstdint>
#include <string>

#include "plan/hardware_profile.h"
#include "protocol/run_config.h"

namespace moe::plan {

struct DecodeQuery {
  int64_t batch = 1;       // sequences decoded together
  int64_t context = 2048;  // positions each sequence's cache holds
  int64_t devices = 1;
  std::string dtype;  // of the weights and the cache; "" for train.dtype
};

struct DecodePrediction {
  DecodeQuery query;
  // The expected number of distinct experts a step's tokens choose in one MoE layer, E (1 - (1 -
  // k'/E)^batch) with choices spread evenly over the experts.
  double experts_touched = 0;
  double weight_bytes_read = 0;  // per step, over every device
  double cache_bytes_read = 0;   // per step, over every device
  double flops = 0;              // per step, over every device
  double memory_s = 0, compute_s = 0, overhead_s = 0, step_s = 0;
  double tokens_per_s = 0;  // batch / step_s, every device together
  double weight_bytes = 0;  // the whole model's
  double cache_bytes = 0;   // batch x context positions, every layer
  double device_bytes = 0;  // one device: its share of both, and the runtime
  bool fits = false;        // device_bytes within the device's memory
  bool memory_bound() const { return memory_s >= compute_s; }
};

// config: a decoder (model.kind "decoder"); query sizes positive.
DecodePrediction predict_decode(const protocol::RunConfig& config, const HardwareProfile& profile,
                                const DecodeQuery& query);

}  // namespace moe::plan

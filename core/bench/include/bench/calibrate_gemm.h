#pragma once
// The GEMM rates of a calibrated profile: the shapes the planner will look up for the given
// configs (plan::count_step's phase shapes on one rank and on each local rank count) and a small
// generic grid, each timed as a forward GEMM [m, k] x [k, n] (batched where the engine batches).
#include <torch/torch.h>

#include <string>
#include <vector>

#include "plan/hardware_profile.h"
#include "protocol/run_config.h"

namespace moe::bench {

struct GemmShape {
  int64_t m = 0, k = 0, n = 0, batch = 1;  // batch > 1: one batched GEMM, as the experts run
  std::string dtype;  // "float32", "bfloat16" or "float64" (float16 runs as float32)
  // Timed by `ranks` workers at once, each with 1/ranks of the device's threads: what each of
  // `ranks` local ranks sharing a CPU gets (1: one process with every thread).
  int64_t ranks = 1;
  // The engine's expert FFN (core/engine/layer/expert_ffn.h) on `batch` experts of m rows, M = k, H
  // = n: both GEMMs with the weights' own layouts, the bias and activation between them.
  bool expert_ffn = false;
};

// Distinct shapes, the configs' first: their dtypes plus float32, and one large shape in each
// dtype no config uses, so that every peak in the profile is a measured one.
std::vector<GemmShape> calibration_shapes(const std::vector<protocol::RunConfig>& configs,
                                          const std::vector<int>& nprocs, bool quick, bool on_gpu);

// Median FLOP/s of at::mm (at::bmm for a batch) on the shape's random operands (warm-up first);
// with ranks > 1 on a CPU, the mean over that many workers timing it at once.
plan::GemmRate time_gemm(const GemmShape& shape, const at::Device& device, bool quick);

}  // namespace moe::bench

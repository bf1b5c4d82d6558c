#pragma once
// The thin layer that lets one kernel source compile three ways: by nvcc for CUDA, by hipcc for
// HIP, and by the host compiler for the host emulation that tests the index logic in CI.
//
// A kernel is a struct with
//   struct Params { ... };                 // passed by value, device pointers and sizes
//   struct Local { ... };                  // one thread's state carried across barriers
//   static constexpr int kPhases = n;      // phases separated by block-wide barriers
//   MOE_HD static void run(int phase, const Thread& t, const Params& p, Local& l,
//                          unsigned char* shared);
// A launcher runs phase 0 for every thread of a block, a barrier, phase 1, ... so a kernel never
// calls __syncthreads itself: the device launcher puts one between phases, the host launcher runs
// every thread of the block through a phase before the next. Warp-level intrinsics are not used
// (warps are 32 lanes on NVIDIA and 64 on AMD; shared memory and barriers work on both).
#include <cstdint>

#include "moe_kernels/types.h"

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MOE_GPU_COMPILER 1
#define MOE_HD __host__ __device__
#else
#define MOE_GPU_COMPILER 0
#define MOE_HD
#endif

namespace moe::kernels::gpu {

// Where one thread is in a 1-D launch.
struct Thread {
  int64_t block;   // blockIdx.x
  int thread;      // threadIdx.x
  int threads;     // blockDim.x
  int64_t blocks;  // gridDim.x
  MOE_HD int64_t global() const { return block * threads + thread; }
  MOE_HD int64_t stride() const { return blocks * threads; }
};

// Threads per block of every launch: a multiple of both warp sizes.
constexpr int kBlockThreads = 256;
// Grids are capped (grid-stride loops cover the rest), which keeps block counts in int range.
constexpr int64_t kMaxBlocks = 65535;

MOE_HD inline int64_t blocks_for(int64_t work, int64_t per_block) {
  const int64_t b = (work + per_block - 1) / per_block;
  return b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b);
}

}  // namespace moe::kernels::gpu

// What one rank does in one optimizer step of a RunConfig on a layout: FLOPs, bytes through
// memory and tensor operations per phase, bytes through the collectives, and the memory it holds
// (docs/PLANNER.md, "Counts"). Pure arithmetic on the config, with the engine's own definitions
// of capacity (moe_kernels/capacity.h) and expert FLOPs (protocol/expert_flops.h); no hardware.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/config_estimates.h"
#include "protocol/run_config.h"

namespace moe::plan {

// Where the run is placed: nodes x ranks per node, Tutel's r and the all-to-all overlap degree.
struct Layout {
  int64_t nodes = 1, nproc_per_node = 1;
  int64_t r = 1;        // resolved: 0, or a divisor of the shards (never "auto")
  int64_t overlap = 1;  // parallel.a2a_overlap_degree
  int64_t world() const { return nodes * nproc_per_node; }
};

// The config's own layout (parallel.nodes, nproc, adaptive_r with "auto" as 1, overlap).
Layout config_layout(const protocol::RunConfig& config);

// Work of one phase: arithmetic, memory traffic and the number of tensor operations.
struct PhaseWork {
  double flops = 0, bytes = 0, ops = 0;
  // The GEMM shape that carries the FLOPs: `batch` products [m, k] x [k, n] in one call (the
  // experts' batched GEMMs), for the device's measured rate.
  int64_t m = 0, k = 0, n = 0, batch = 1;
  bool backward = false;    // the backward of that shape's GEMM (its own measured rate)
  bool expert_ffn = false;  // the experts' FFN: both GEMMs [m, k] x [k, n] and [m, n] x [n, k]
};

struct Collective {  // one kind of collective of one rank in one step
  double bytes = 0;  // sent by this rank (all-to-all) or reduced (all-reduce: the buffer size)
  double inter_node_bytes = 0;  // of `bytes`, to or across other nodes
  double calls = 0;
};

struct StepCounts {
  Layout layout;
  double tokens_per_step = 0;  // global: batch_size x grad_accum x tokens per sample
  double model_flops = 0;      // global FLOPs of the step, forward and backward (config_estimates)
  int64_t capacity_slots = 0;  // slots per expert of one rank's buffer (Cs)
  // Forward phases (the engine's phase names), then backward as a whole, then the optimizer.
  PhaseWork gate, dispatch, experts, combine, other, optimizer;
  PhaseWork attention;  // the lm's attention scores (batched per head), part of "other"
  // Backward: the backward of each forward phase but the experts' (backward_parts, each priced
  // at its own forward shape) and their sum; the experts' kept apart for the overlap with the
  // all-to-all.
  std::vector<PhaseWork> backward_parts;
  PhaseWork backward, experts_backward;
  Collective a2a_forward, a2a_backward;  // tokens through the MoE layers' all-to-alls
  // In the gate: every rank gathers the group's choices and sums the load metrics (per layer).
  Collective routing;
  Collective gather_forward;    // expert weights all-gathered (r = 0, or r < shards)
  Collective gather_backward;   // their gradients all-reduced
  Collective allreduce;         // data parallelism's gradient all-reduce (and the loss's)
  double gradient_buckets = 0;  // of allreduce's calls, the gradient buckets (the rest are small)
  MemoryEstimate memory;        // one rank; activations include the capacity buffers
  double buffers = 0;           // all-to-all send/receive buffers and gathered weights, bytes
  double transient = 0;         // working memory of backward and the optimizer (op_counts.h), bytes
  double memory_bytes() const { return memory.states() + memory.activations + buffers + transient; }
};

// Backward of a forward phase: twice its FLOPs (input and weight gradients) on the same shapes,
// and half as much again of its memory traffic and operations (op_counts.h).
PhaseWork backward_of(const PhaseWork& forward);

// Throws std::invalid_argument when the layout does not suit the config (experts neither a
// multiple nor a divisor of the world with expert parallelism, r not admitted, batch not
// divisible).
StepCounts count_step(const protocol::RunConfig& config, const Layout& layout);

// The config with the layout's parallel settings, as a run on that layout would have it.
protocol::RunConfig with_layout(protocol::RunConfig config, const Layout& layout);

}  // namespace moe::plan

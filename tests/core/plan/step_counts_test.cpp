// The planner's counts against values worked out by hand for small configs (docs/PLANNER.md,
// "Counts"): FLOPs, bytes through memory, all-to-all, weight gathers and all-reduce, for one rank,
// expert parallel ranks, sharded experts and several nodes.
#include <gtest/gtest.h>

#include <stdexcept>

#include "plan/step_counts.h"

namespace moe::plan {
namespace {

// helloworld, M = 8, E = 4, H = 16, k = 2, seq_len 4, batch 2 (8 tokens), capacity factor 1,
// float32, AdamW. Expert parameters: 2 E H M + E H + E M = 1024 + 64 + 32 = 1120; gate E M = 32.
protocol::RunConfig tiny() {
  protocol::RunConfig c;
  c.model.kind = moe::protocol::ModelKind::HelloWorld;
  c.model.dim = 8;
  c.model.seq_len = 4;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  c.moe.hidden = 16;
  c.moe.capacity_factor = 1.0;
  c.train.batch_size = 2;
  c.train.dtype = moe::protocol::Dtype::Float32;
  c.train.optimizer = moe::protocol::Optimizer::AdamW;
  return c;
}

TEST(PlanCounts, OneRank) {
  const StepCounts s = count_step(tiny(), Layout{});
  // N = 8, ceil(N / E) = 2, C = k floor(f 2) = 4.
  EXPECT_EQ(s.capacity_slots, 4);
  EXPECT_DOUBLE_EQ(s.tokens_per_step, 8);
  EXPECT_DOUBLE_EQ(s.gate.flops, 8 * 2 * 4 * 8);            // N x 2 E M = 512
  EXPECT_DOUBLE_EQ(s.experts.flops, 4.0 * 4 * 4 * 8 * 16);  // 4 E C M H = 8192
  // Backward: the helloworld MoE layer takes the data itself, so no gradient flows to it: three
  // of the expert FFN's four GEMMs (no dX), and the gate weight's gradient only.
  EXPECT_DOUBLE_EQ(s.experts_backward.flops, 1.5 * 8192.0);
  EXPECT_DOUBLE_EQ(s.other.flops, 0);  // helloworld: nothing but the MoE layer
  EXPECT_DOUBLE_EQ(s.backward.flops, 512.0);
  EXPECT_EQ(s.backward_parts.size(), 4u);  // gate, combine, other, attention: no dispatch
  // Dispatch: zero fill and scatter of [E, C, M] plus reading and scaling N k rows of M floats.
  EXPECT_DOUBLE_EQ(s.dispatch.bytes, 2 * 4 * 4 * 8 * 4 + 2 * 8 * 2 * 8 * 4);  // 2048
  // AdamW in float32 over 1152 parameters: 19 passes over 4-byte elements (op_counts.h).
  EXPECT_DOUBLE_EQ(s.optimizer.bytes, 1152 * 19 * 4);
  EXPECT_EQ(s.a2a_forward.calls, 0);
  EXPECT_EQ(s.allreduce.calls, 0);
  // Weights, gradients, two AdamW states.
  EXPECT_DOUBLE_EQ(s.memory.states(), 1152 * 4 * 4);
  EXPECT_DOUBLE_EQ(s.buffers, 0);
  // Three temporaries the size of the largest tensor, batched_fc1_w: E H M = 512 floats.
  EXPECT_DOUBLE_EQ(s.transient, 3 * 512 * 4);
}

TEST(PlanCounts, GradAccumMultipliesTheMicroBatchesOnly) {
  protocol::RunConfig c = tiny();
  c.train.grad_accum = 3;
  const StepCounts one = count_step(tiny(), Layout{}), three = count_step(c, Layout{});
  EXPECT_DOUBLE_EQ(three.experts.flops, 3 * one.experts.flops);
  EXPECT_DOUBLE_EQ(three.optimizer.bytes, one.optimizer.bytes);
  EXPECT_DOUBLE_EQ(three.tokens_per_step, 3 * one.tokens_per_step);
}

TEST(PlanCounts, TwoRanksExpertParallel) {
  const StepCounts s = count_step(tiny(), Layout{1, 2, 1, 1});
  // Each rank routes 4 tokens: Cs = k floor(ceil(4 / 4)) = 2.
  EXPECT_EQ(s.capacity_slots, 2);
  // Dispatch and combine each send (W-1)/W of [E, Cs, M] floats: 2 x 1/2 x 4 x 2 x 8 x 4 = 256.
  EXPECT_DOUBLE_EQ(s.a2a_forward.bytes, 256);
  EXPECT_DOUBLE_EQ(s.a2a_forward.calls, 2);
  // The gate gathers the other rank's choices, 4 tokens x k x int32, and sums the load metrics.
  EXPECT_DOUBLE_EQ(s.routing.bytes, 32);
  EXPECT_DOUBLE_EQ(s.routing.calls, 2);
  // Backward: only the outputs' gradients travel (the data needs none): half the bytes.
  EXPECT_DOUBLE_EQ(s.a2a_backward.bytes, 128);
  EXPECT_DOUBLE_EQ(s.a2a_backward.calls, 1);
  EXPECT_DOUBLE_EQ(s.a2a_forward.inter_node_bytes, 0);  // one node
  EXPECT_DOUBLE_EQ(s.gather_forward.bytes, 0);
  // Every rank computes E x Cs rows: 4 x 4 x 2 x 8 x 16.
  EXPECT_DOUBLE_EQ(s.experts.flops, 4.0 * 4 * 2 * 8 * 16);
  // Only the gate is averaged: 32 floats, one bucket, plus the step's small collectives.
  EXPECT_DOUBLE_EQ(s.allreduce.bytes, 32 * 4);
  EXPECT_DOUBLE_EQ(s.allreduce.calls, 1 + 3);
  // The rank holds half the experts: 560 + 32 parameters.
  EXPECT_DOUBLE_EQ(s.memory.states(), (560 + 32) * 4 * 4);
  EXPECT_DOUBLE_EQ(s.buffers, 2 * 4 * 2 * 8 * 4);  // received tokens and outputs, [E, Cs, M]
  EXPECT_DOUBLE_EQ(s.transient, 3 * 256 * 4);      // the rank's half of batched_fc1_w
}

TEST(PlanCounts, LayersAfterOthersPassGradientsBackThroughEverything) {
  protocol::RunConfig c = tiny();
  c.model.kind =
      moe::protocol::ModelKind::Lm;  // attention before the MoE layer: its input needs a gradient
  c.model.layers = 1;
  c.model.heads = 2;
  c.model.vocab = 16;
  const StepCounts one = count_step(c, Layout{}), two = count_step(c, Layout{1, 2, 1, 1});
  EXPECT_DOUBLE_EQ(one.experts_backward.flops, 2 * one.experts.flops);
  EXPECT_EQ(one.backward_parts.size(), 5u);  // gate, dispatch, combine, other, attention
  EXPECT_DOUBLE_EQ(one.backward_parts[0].flops, 2 * one.gate.flops);
  EXPECT_DOUBLE_EQ(two.a2a_backward.bytes, two.a2a_forward.bytes);
  EXPECT_DOUBLE_EQ(two.a2a_backward.calls, two.a2a_forward.calls);
}

TEST(PlanCounts, TwoNodesSendEverythingBetweenNodes) {
  const StepCounts s = count_step(tiny(), Layout{2, 1, 1, 1});
  EXPECT_DOUBLE_EQ(s.a2a_forward.inter_node_bytes, s.a2a_forward.bytes);
  EXPECT_DOUBLE_EQ(s.allreduce.inter_node_bytes, s.allreduce.bytes);
}

TEST(PlanCounts, ROfZeroGathersTheExperts) {
  const StepCounts s = count_step(tiny(), Layout{1, 2, 0, 1});
  EXPECT_DOUBLE_EQ(s.a2a_forward.bytes, 0);  // no tokens travel
  EXPECT_DOUBLE_EQ(s.a2a_backward.bytes, 0);
  EXPECT_DOUBLE_EQ(s.routing.bytes, 32);
  // All 1120 expert parameters: half come from the other rank; their gradients are summed whole.
  EXPECT_DOUBLE_EQ(s.gather_forward.bytes, 0.5 * 1120 * 4);
  EXPECT_DOUBLE_EQ(s.gather_forward.calls, 4);  // fc1 and fc2 weights and biases
  EXPECT_DOUBLE_EQ(s.gather_backward.bytes, 1120 * 4);
  EXPECT_DOUBLE_EQ(s.experts.flops, 4.0 * 4 * 2 * 8 * 16);  // the same work as r = 1
}

TEST(PlanCounts, ShardedExpertsTradeTokensForWeights) {
  protocol::RunConfig c = tiny();
  c.moe.experts = 2;
  c.train.batch_size = 4;  // one sample of 4 tokens per rank on 4 ranks: s = W / E = 2
  const StepCounts r1 = count_step(c, Layout{1, 4, 1, 1});
  const StepCounts r2 = count_step(c, Layout{1, 4, 2, 1});
  // Cs = k floor(ceil(4 / 2)) = 4 (already a multiple of s / r = 2).
  EXPECT_EQ(r1.capacity_slots, 4);
  EXPECT_EQ(r2.capacity_slots, 4);
  // Each slot goes to the r ranks of its group: 2 x 3/4 x E x r x Cs x M x 4 bytes.
  EXPECT_DOUBLE_EQ(r1.a2a_forward.bytes, 2 * 0.75 * 2 * 1 * 4 * 8 * 4);
  EXPECT_DOUBLE_EQ(r2.a2a_forward.bytes, 2 * 0.75 * 2 * 2 * 4 * 8 * 4);
  EXPECT_DOUBLE_EQ(r1.routing.bytes, 3 * 4 * 2 * 4);  // 3 other ranks x 4 tokens x k x int32
  // r = 1 < s gathers both experts whole (2 x 2 x 16 x 8 + 2 x 16 + 2 x 8 = 560 parameters);
  // r = s needs no weights.
  EXPECT_DOUBLE_EQ(r1.gather_forward.bytes, 0.75 * 560 * 4);
  EXPECT_DOUBLE_EQ(r2.gather_forward.bytes, 0);
  EXPECT_DOUBLE_EQ(r1.experts.flops, r2.experts.flops);
}

TEST(PlanCounts, OverlapSplitsTheAllToAllCalls) {
  protocol::RunConfig c = tiny();
  c.train.batch_size = 4;  // 8 tokens per rank: Cs = 4, a multiple of the overlap degree 2
  const StepCounts s = count_step(c, Layout{1, 2, 1, 2});
  EXPECT_EQ(s.capacity_slots, 4);
  EXPECT_DOUBLE_EQ(s.a2a_forward.calls, 2 * 2);
}

TEST(PlanCounts, RefusesLayoutsTheEngineRefuses) {
  EXPECT_THROW(count_step(tiny(), Layout{1, 3, 1, 1}), std::invalid_argument);  // E = 4, W = 3
  EXPECT_THROW(count_step(tiny(), Layout{1, 2, 2, 1}), std::invalid_argument);  // r = 2, s = 1
  EXPECT_THROW(count_step(tiny(), Layout{1, 0, 1, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace moe::plan

// Predicted times against hand-computed ones on a made-up profile with round figures: GEMMs at
// the device's rate, memory-bound work at its bandwidth, a fixed cost per operation, ranks
// sharing a device, ring and hierarchical all-reduce, the all-to-all's latency and bandwidth,
// and the overlap of the all-to-all with the experts.
#include <gtest/gtest.h>

#include "plan/step_time.h"

namespace moe::plan {
namespace {

HardwareProfile roundProfile() {
  HardwareProfile p;
  p.name = "round";
  p.device.name = "round device";
  p.device.peak_flops_float32 = 1e9;
  p.device.gemm_efficiency = 1.0;
  p.device.memory_bandwidth = 1e9;
  p.device.memory_bytes = 1e9;
  p.device.runtime_bytes = 1e6;
  p.device.op_overhead_s = 1e-6;
  p.device.devices_per_node = 2;
  p.intra_node = {{"intra", 2, 1e-6, 1e9, 2e-6, 1e9}};
  p.inter_node = {"inter", 0, 10e-6, 1e8, 20e-6, 1e8};
  p.allreduce_overlap = 0;
  return p;
}

StepCounts counts(const Layout& l) {
  StepCounts s;
  s.layout = l;
  s.tokens_per_step = 1000;
  s.gate = {1e6, 1e6, 10};           // 1 ms + 1 ms + 10 us
  s.experts = {4e6, 0, 0};           // 4 ms
  s.experts_backward = {8e6, 0, 0};  // 8 ms
  s.backward_parts = {backward_of(s.gate)};
  return s;
}

TEST(PlanTime, ComputeAtTheDeviceRates) {
  const StepPrediction p = predict_step(counts(Layout{}), roundProfile(), "float32");
  EXPECT_NEAR(p.phases_ms.at("gate"), 2.01, 1e-9);
  EXPECT_NEAR(p.phases_ms.at("experts"), 4, 1e-9);
  // The experts' 8 ms, and the gate's backward: twice its FLOPs, 1.5 x its bytes and ops.
  EXPECT_NEAR(p.phases_ms.at("backward"), 8 + 2 + 1.5 + 0.015, 1e-9);
  EXPECT_NEAR(p.step_ms, 17.525, 1e-9);
  EXPECT_NEAR(p.compute_ms, 17.525, 1e-9);
  EXPECT_NEAR(p.tokens_per_s, 1000 / 0.017525, 1e-6);
  EXPECT_DOUBLE_EQ(p.memory_bytes, 1e6);
}

TEST(PlanTime, RanksBeyondTheDevicesShareThem) {
  const StepPrediction p = predict_step(counts(Layout{1, 4, 1, 1}), roundProfile(), "float32");
  EXPECT_EQ(p.ranks_per_device, 2);
  EXPECT_NEAR(p.phases_ms.at("experts"), 8, 1e-9);
}

TEST(PlanTime, AllToAllIsLatencyPlusBytesOverTheSlowerLink) {
  StepCounts s = counts(Layout{1, 2, 1, 1});
  s.a2a_forward = {1e6, 0, 2};  // 2 x 1 us + 1 ms within the node
  EXPECT_NEAR(predict_step(s, roundProfile(), "float32").a2a_ms, 1.002, 1e-9);
  s = counts(Layout{2, 2, 1, 1});
  s.a2a_forward = {1e6, 0.5e6, 2};  // 2 x 10 us + max(0.5 ms intra, 5 ms inter)
  EXPECT_NEAR(predict_step(s, roundProfile(), "float32").a2a_ms, 5.02, 1e-9);
}

TEST(PlanTime, AllReduceIsARingWithinANodeAndHierarchicalAcross) {
  StepCounts s = counts(Layout{1, 2, 1, 1});
  s.allreduce = {1e6, 0, 1};  // 2 us + 2 (2-1)/2 x 1 MB / 1 GB/s
  EXPECT_NEAR(predict_step(s, roundProfile(), "float32").allreduce_ms, 1.002, 1e-9);
  s = counts(Layout{4, 2, 1, 1});
  // 20 us + 2 (1/2) 1 MB / 1 GB/s within + 2 (3/4) (1 MB / 2) / 100 MB/s between nodes.
  s.allreduce = {1e6, 1e6, 1};
  EXPECT_NEAR(predict_step(s, roundProfile(), "float32").allreduce_ms, 0.02 + 1 + 7.5, 1e-9);
}

TEST(PlanTime, OverlapHidesTheShorterOfAllToAllAndExperts) {
  StepCounts s = counts(Layout{1, 2, 1, 4});
  s.a2a_forward = {2e6, 0, 1};  // 2.001 ms against the experts' 4 ms: a quarter of it stays
  const StepPrediction p = predict_step(s, roundProfile(), "float32");
  EXPECT_NEAR(p.phases_ms.at("a2a"), 2.001 / 4, 1e-9);
  EXPECT_NEAR(p.phases_ms.at("experts"), 4, 1e-9);
}

TEST(PlanTime, MemoryBeyondTheDeviceDoesNotFit) {
  StepCounts s = counts(Layout{});
  s.memory.weights = 2e9;
  const StepPrediction p = predict_step(s, roundProfile(), "float32");
  EXPECT_DOUBLE_EQ(p.memory_bytes, 2e9 + 1e6);
  EXPECT_FALSE(p.fits);
}

TEST(PlanTime, MeasuredGemmRatesWinOverThePeak) {
  HardwareProfile p = roundProfile();
  p.device.gemm_rates = {{1024, 1024, 1024, 1, 1, "float32", 4e9},
                         {16, 16, 16, 1, 1, "float32", 1e8}};
  EXPECT_DOUBLE_EQ(p.gemm_rate(2048, 1024, 1024, "float32"), 4e9);
  EXPECT_DOUBLE_EQ(p.gemm_rate(8, 32, 16, "float32"), 1e8);
  EXPECT_DOUBLE_EQ(p.gemm_rate(8, 32, 16, "float16"), 1e8);  // float16 runs as float32
  // Measured with half the threads, for two ranks sharing the device: preferred for two ranks,
  // and the device's rate is twice what one such process does.
  p.device.gemm_rates.push_back({1024, 1024, 1024, 1, 2, "float32", 3e9});
  EXPECT_DOUBLE_EQ(p.gemm_rate(1024, 1024, 1024, "float32", 1, 2), 6e9);
  EXPECT_DOUBLE_EQ(p.gemm_rate(1024, 1024, 1024, "float32", 1, 1), 4e9);
  // No bfloat16 peak and none measured: the float32 figures stand in.
  EXPECT_DOUBLE_EQ(p.gemm_rate(8, 32, 16, "bfloat16"), 1e8);
}

TEST(PlanTime, BackwardGemmsTakeTheirOwnMeasuredRate) {
  HardwareProfile p = roundProfile();
  p.device.gemm_rates = {{1024, 1024, 1024, 1, 1, "float32", 4e9, 5e9},
                         {16, 16, 16, 1, 1, "float32", 1e8}};
  GemmQuery q{1024, 1024, 1024};
  q.backward = true;
  EXPECT_DOUBLE_EQ(p.gemm_rate(q, "float32"), 5e9);
  q.backward = false;
  EXPECT_DOUBLE_EQ(p.gemm_rate(q, "float32"), 4e9);
  // An entry without a backward figure: backward runs at the forward rate.
  EXPECT_DOUBLE_EQ(p.gemm_rate(GemmQuery{16, 16, 16, 1, 1, true}, "float32"), 1e8);
  // A phase's backward (2x its FLOPs) is priced at the backward rate of its forward shape.
  const PhaseWork forward{1e9, 0, 0, 1024, 1024, 1024, 1};
  StepCounts s;
  s.tokens_per_step = 1000;
  s.experts = forward, s.experts_backward = backward_of(forward);
  EXPECT_TRUE(s.experts_backward.backward);
  const StepPrediction at = predict_step(s, p, "float32");
  EXPECT_NEAR(at.phases_ms.at("experts"), 250, 1e-9);   // 1 GFLOP at 4 GFLOP/s
  EXPECT_NEAR(at.phases_ms.at("backward"), 400, 1e-9);  // 2 GFLOP at 5 GFLOP/s
}

TEST(PlanTime, ExpertsTakeTheExpertFfnEntriesFirst) {
  HardwareProfile p = roundProfile();
  GemmRate ffn{512, 512, 2048, 8, 1, "float32", 3e9};
  ffn.expert_ffn = true;
  p.device.gemm_rates = {{512, 512, 2048, 8, 1, "float32", 4e9}, ffn};
  GemmQuery q{512, 512, 2048, 8};
  EXPECT_DOUBLE_EQ(p.gemm_rate(q, "float32"), 4e9);  // a plain GEMM: the plain entry
  q.expert_ffn = true;
  EXPECT_DOUBLE_EQ(p.gemm_rate(q, "float32"), 3e9);
  // Only the other kind measured: it stands in rather than the peak.
  p.device.gemm_rates = {{512, 512, 2048, 8, 1, "float32", 4e9}};
  EXPECT_DOUBLE_EQ(p.gemm_rate(q, "float32"), 4e9);
}

}  // namespace
}  // namespace moe::plan

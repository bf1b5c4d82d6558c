// One point of the layer benchmark on a small config: the figures it reports are those of the
// layer it built (tokens, capacity, top-k), its naive baseline computes the same output, and its
// table and JSON carry them.
#include <gtest/gtest.h>

#include <sstream>

#include "bench/bench_report.h"
#include "bench/layer_benchmark.h"
#include "moe_kernels/capacity.h"

namespace moe::bench {
namespace {

protocol::RunConfig small_config() {
  protocol::RunConfig c;
  c.model.dim = 16;
  c.model.seq_len = 8;
  c.train.batch_size = 4;
  c.train.threads = 1;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  c.moe.hidden = 24;
  return c;
}

LayerBenchOptions quick() {
  LayerBenchOptions o;
  o.timing = TimingOptions{1, 3, 0};
  return o;
}

TEST(LayerBenchmark, ReportsTheLayerItTimed) {
  const protocol::RunConfig c = small_config();
  const LayerBenchResult r = benchmark_layer(c, quick());
  EXPECT_EQ(r.tokens, 32);
  EXPECT_EQ(r.top_k, 2);
  // capacity_factor 1: k * ceil(N / E) slots per expert (no alignment on the CPU).
  EXPECT_EQ(r.capacity, kernels::capacity_slots(c.moe.capacity_factor, r.tokens, c.moe.experts,
                                                c.moe.top_k, 0, 1));
  EXPECT_EQ(r.capacity, 16);
  EXPECT_GE(r.rounds, 3);
  EXPECT_GT(r.forward_ms, 0);
  EXPECT_GT(r.train_ms, 0);
  EXPECT_GT(r.ceiling_train_ms, 0);
  EXPECT_NEAR(r.train_tokens_per_s, r.tokens / (r.train_ms / 1000), 1e-6 * r.train_tokens_per_s);
  EXPECT_GT(r.efficiency, 0);
  EXPECT_GT(r.routing_share, 0);
  EXPECT_LT(r.routing_share, 1);
  EXPECT_TRUE(r.phases_ms.count("gate"));
  // The naive GShard einsums route the same tokens to the same experts: the same output.
  ASSERT_GE(r.naive_max_abs_diff, 0);
  EXPECT_LT(r.naive_max_abs_diff, 1e-4);
  EXPECT_GT(r.naive_speedup, 0);
}

// Gated experts: nine GEMMs in the ceiling, and the naive einsums compute the same SwiGLU.
TEST(LayerBenchmark, GluExpertsHaveANineGemmCeilingAndTheNaiveOutput) {
  protocol::RunConfig c = small_config();
  c.moe.expert_ffn = protocol::ExpertFfn::Glu;
  c.moe.activation = protocol::Activation::Silu;
  const LayerBenchResult r = benchmark_layer(c, quick());
  EXPECT_EQ(r.ceiling_gemms, 9);
  EXPECT_EQ(benchmark_layer(small_config(), quick()).ceiling_gemms, 6);
  ASSERT_GE(r.naive_max_abs_diff, 0);
  EXPECT_LT(r.naive_max_abs_diff, 1e-4);
}

// Dropless routing pads the buffer to the largest demand: the bench counts the routed rows
// against the buffer's and times the layer on the padded buffer beside its ragged path.
TEST(LayerBenchmark, DroplessCountsRoutedRowsAndTimesThePaddedBuffer) {
  protocol::RunConfig c = small_config();
  c.moe.capacity_factor = 0;
  c.moe.experts = 8;
  const LayerBenchResult r = benchmark_layer(c, quick());
  EXPECT_EQ(r.routed_rows, r.tokens * r.top_k);  // nothing dropped
  EXPECT_EQ(r.buffer_rows, c.moe.experts * r.capacity);
  // 32 tokens over 8 experts: some expert gets well over the 8 rows of a fair share.
  ASSERT_LE(r.routed_rows * 10, r.buffer_rows * 9);
  EXPECT_GT(r.padded_train_ms, 0);
  EXPECT_GT(r.ragged_speedup, 0);
  ASSERT_GE(r.naive_max_abs_diff, 0);
  EXPECT_LT(r.naive_max_abs_diff, 1e-4);
  // With a capacity factor some choices drop: no ragged path, nothing padded timed.
  const LayerBenchResult capped = benchmark_layer(small_config(), quick());
  EXPECT_LT(capped.routed_rows, capped.tokens * capped.top_k);
  EXPECT_EQ(capped.padded_train_ms, 0);
}

TEST(LayerBenchmark, WithoutTheNaiveBaselineItsFiguresStayEmpty) {
  LayerBenchOptions o = quick();
  o.naive = false;
  const LayerBenchResult r = benchmark_layer(small_config(), o);
  EXPECT_EQ(r.naive_train_ms, 0);
  EXPECT_LT(r.naive_max_abs_diff, 0);
}

TEST(BenchReport, JsonAndTableCarryTheResult) {
  LayerBenchResult r = benchmark_layer(small_config(), quick());
  r.swept = {{"moe.experts", 4}};
  const nlohmann::json j = bench_json(r);
  EXPECT_EQ(j.at("tokens"), 32);
  EXPECT_EQ(j.at("capacity"), r.capacity);
  EXPECT_DOUBLE_EQ(j.at("train_ms").get<double>(), r.train_ms);
  EXPECT_EQ(j.dump().find("nan"), std::string::npos);

  std::ostringstream table;
  print_bench_table(table, {r, r});
  const std::string text = table.str();
  EXPECT_NE(text.find("moe.experts"), std::string::npos) << text;
  EXPECT_NE(text.find("eff"), std::string::npos) << text;
}

}  // namespace
}  // namespace moe::bench

// moe-train bench end to end on a tiny layer: the table, the JSON keys (docs/PROTOCOL.md).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>

#include "process.h"
#include "tiny_bench.h"

namespace moe::test {
namespace {

TEST(BenchCommand, SweepWritesOneJsonObjectPerConfig) {
  TempDir dir;
  auto json_path = dir.file("bench.json");
  auto r = run_moe_train({"bench", "--set", "model.dim=32", "--set", "moe.hidden=64", "--set",
                          "model.seq_len=8", "--set", "train.batch_size=8", "--sweep",
                          "moe.experts=4,8", "--sweep", "moe.top_k=1,2", "--iters", "2",
                          "--min-time", "0", "--json", json_path});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("moe.experts=8 moe.top_k=2"), std::string::npos) << r.out;
  nlohmann::json results;
  std::ifstream(json_path) >> results;
  ASSERT_EQ(results.size(), 4u);
  for (const auto& item : results) {
    for (const char* key :
         {"config", "tokens", "forward_tokens_per_s", "train_tokens_per_s", "train_tflops",
          "efficiency", "phases_ms", "naive_train_tokens_per_s"}) {
      EXPECT_TRUE(item.contains(key)) << key;
    }
    EXPECT_EQ(item["tokens"], 64);
    EXPECT_GT(item["train_tokens_per_s"].get<double>(), 0);
    EXPECT_GT(item["efficiency"].get<double>(), 0);
    EXPECT_TRUE(item["phases_ms"].contains("experts"));
    // Our layer and the naive GShard formulation compute the same output.
    EXPECT_LT(item["naive_max_abs_diff"].get<double>(), 1e-4);
    // Every config says which thread setting it ran under and how many rounds it timed.
    EXPECT_GE(item["intra_op_threads"].get<int>(), 1);
    EXPECT_TRUE(item.contains("blas_threads"));
    EXPECT_GE(item["kernel_threads"].get<int>(), 1);
    EXPECT_GE(item["rounds"].get<int>(), 2);
    EXPECT_GT(item["ceiling_train_ms"].get<double>(), 0);
    EXPECT_GT(item["naive_speedup"].get<double>(), 0);
  }
  // One row per config, each naming its threads; no column without figures.
  EXPECT_EQ(r.out.find("(ms)"), std::string::npos) << r.out;
  size_t rows = 0;
  for (size_t at = r.out.find("moe.experts="); at != std::string::npos;
       at = r.out.find("moe.experts=", at + 1)) {
    const auto line = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_TRUE(std::regex_search(line, std::regex(R"(\| \d+, (\d+|n/a), \d+$)"))) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 4u) << r.out;
  EXPECT_EQ(results[3]["config"]["moe.experts"], 8);
  EXPECT_EQ(results[3]["config"]["moe.top_k"], 2);
}

// The naive baseline computes its own capacity; in every regime (tokens dropped at a factor
// below one, dropless at 0, capped dropless below 0) and with either gate it must agree with the
// layer on the capacity and the output.
TEST(BenchCommand, NaiveBaselineAgreesInEveryCapacityRegime) {
  TempDir dir;
  auto json_path = dir.file("bench.json");
  auto r = run_moe_train(tiny_bench(6, {"--set", "moe.experts=4", "--set", "moe.top_k=2", "--sweep",
                                        "moe.capacity_factor=0.5,0,-0.75", "--sweep",
                                        "moe.gate=top,cosine", "--json", json_path}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  nlohmann::json results;
  std::ifstream(json_path) >> results;
  ASSERT_EQ(results.size(), 6u);
  for (const auto& item : results) {
    EXPECT_EQ(item["naive_capacity"], item["capacity"]) << item["config"].dump();
    EXPECT_LT(item["naive_max_abs_diff"].get<double>(), 1e-4) << item["config"].dump();
  }
  // 48 tokens, 4 experts, k = 2: factor 0.5 gives 2 * floor(0.5 * 12) = 12 slots per expert.
  EXPECT_EQ(results[0]["capacity"], 12);
}

TEST(BenchCommand, WithoutNaiveNoBaselineFiguresAndFixedBlasThreads) {
  TempDir dir;
  auto json_path = dir.file("bench.json");
  auto r = run_moe_train(tiny_bench(4, {"--no-naive", "--blas-threads", "1", "--json", json_path}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  nlohmann::json results;
  std::ifstream(json_path) >> results;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["naive_train_ms"], 0);
  EXPECT_EQ(results[0]["naive_max_abs_diff"], -1);
  EXPECT_GT(results[0]["efficiency"].get<double>(), 0);
  // --blas-threads fixes the GEMMs' threads instead of searching: OpenBLAS's own (LibTorch's pool
  // stays at one), or, with a BLAS that follows LibTorch's pool (MKL: blas_threads 0), the pool's.
  const int blas = results[0]["blas_threads"].get<int>();
  EXPECT_GE(blas, 0);
  EXPECT_EQ(blas > 0 ? blas : results[0]["intra_op_threads"].get<int>(), 1);
  EXPECT_EQ(results[0]["intra_op_threads"], 1);
}

TEST(BenchCommand, BadSweepIsExitTwoBeforeMeasuring) {
  auto r = run_moe_train({"bench", "--sweep", "moe.top_k=1,99"});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("/moe/top_k"), std::string::npos) << r.err;
  auto r2 = run_moe_train({"bench", "--sweep", "moe.nothing=1"});
  EXPECT_EQ(r2.exit_status, 2);
  EXPECT_NE(r2.err.find("moe.nothing"), std::string::npos) << r2.err;
  auto r3 = run_moe_train({"bench", "--sweep", "moe.top_k"});
  EXPECT_EQ(r3.exit_status, 2);
  auto r4 = run_moe_train({"bench", "--json", "/nonexistent-dir/out.json"});
  EXPECT_EQ(r4.exit_status, 2);
  EXPECT_NE(r4.err.find("/nonexistent-dir"), std::string::npos) << r4.err;
  auto r5 = run_moe_train({"bench", "--set", "train.dtype=float16"});
  EXPECT_EQ(r5.exit_status, 2);
  EXPECT_NE(r5.err.find("train.dtype"), std::string::npos) << r5.err;
}

}  // namespace
}  // namespace moe::test

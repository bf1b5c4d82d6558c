// moe-train bench --jsonl and --pair (docs/PROTOCOL.md): one JSON line per finished config on
// stdout for the Profiler view, the paired sweeps, train.threads, and the bad sweeps it refuses.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "process.h"
#include "tiny_bench.h"

namespace moe::test {
namespace {

// Without the naive baseline: these tests read the lines, not the figures.
std::vector<std::string> tiny(std::vector<std::string> more) {
  more.push_back("--no-naive");
  return tiny_bench(4, more);
}

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST(BenchStream, JsonlPrintsStartOneLinePerConfigAndEnd) {
  auto r =
      run_moe_train(tiny({"--sweep", "moe.experts=2,4", "--sweep", "moe.top_k=1,2", "--jsonl"}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  // stdout is JSON lines only: every line parses.
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_EQ(lines[0]["type"], "bench_start");
  EXPECT_EQ(lines[0]["configs"], 4);
  EXPECT_EQ(lines[0]["mode"], "grid");
  EXPECT_EQ(lines[0]["naive"], false);
  for (int i = 0; i < 4; ++i) {
    const auto& line = lines[1 + i];
    EXPECT_EQ(line["type"], "bench_config");
    EXPECT_EQ(line["index"], i);
    EXPECT_EQ(line["of"], 4);
    EXPECT_GT(line["seconds"].get<double>(), 0);
    EXPECT_GT(line["train_tokens_per_s"].get<double>(), 0);
    EXPECT_TRUE(line["phases_ms"].contains("experts"));
  }
  EXPECT_EQ(lines[1]["config"], (nlohmann::json{{"moe.experts", 2}, {"moe.top_k", 1}}));
  EXPECT_EQ(lines[4]["config"], (nlohmann::json{{"moe.experts", 4}, {"moe.top_k", 2}}));
  EXPECT_EQ(lines[5]["type"], "bench_end");
  EXPECT_EQ(lines[5]["configs"], 4);
  // The table people read went to stderr.
  EXPECT_NE(r.err.find("train tok/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("moe.experts=4 moe.top_k=2"), std::string::npos) << r.err;
}

TEST(BenchStream, WithoutJsonlStdoutIsTheTable) {
  auto r = run_moe_train(tiny({"--sweep", "moe.experts=2,4"}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("train tok/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bench_config"), std::string::npos) << r.out;
}

TEST(BenchStream, PairTakesTheIthValueOfEverySweep) {
  auto r = run_moe_train(tiny({"--sweep", "moe.experts=2,4,8", "--sweep", "moe.top_k=1,2,2",
                               "--sweep", "train.batch_size=4,2,4", "--pair", "--jsonl"}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(lines[0]["mode"], "paired");
  EXPECT_EQ(lines[0]["configs"], 3);
  EXPECT_EQ(lines[2]["config"]["moe.experts"], 4);
  EXPECT_EQ(lines[2]["config"]["moe.top_k"], 2);
  EXPECT_EQ(lines[2]["tokens"], 16);  // batch 2 x seq_len 8
  EXPECT_EQ(lines[3]["config"]["moe.experts"], 8);
  EXPECT_EQ(lines[3]["tokens"], 32);
}

TEST(BenchStream, TrainThreadsFixesTheThreads) {
  auto r = run_moe_train(tiny({"--sweep", "train.threads=1,2", "--jsonl"}));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[1]["kernel_threads"], 1);
  EXPECT_EQ(lines[2]["kernel_threads"], 2);
  // The GEMMs run on the same number: on the BLAS when it can be set, else LibTorch's pool.
  const auto& t = lines[2];
  EXPECT_TRUE(t["blas_threads"] == 2 || t["intra_op_threads"] == 2) << t.dump();
}

TEST(BenchStream, BadSweepsAreExitTwoBeforeMeasuring) {
  auto uneven = run_moe_train(
      tiny({"--sweep", "moe.experts=2,4", "--sweep", "moe.top_k=1", "--pair", "--jsonl"}));
  EXPECT_EQ(uneven.exit_status, 2);
  EXPECT_NE(uneven.err.find("--pair"), std::string::npos) << uneven.err;
  EXPECT_NE(uneven.err.find("moe.top_k has 1"), std::string::npos) << uneven.err;
  EXPECT_EQ(uneven.out, "");  // nothing started: not even the start line
  auto twice = run_moe_train(tiny({"--sweep", "moe.experts=2", "--sweep", "moe.experts=4"}));
  EXPECT_EQ(twice.exit_status, 2);
  EXPECT_NE(twice.err.find("moe.experts is given twice"), std::string::npos) << twice.err;
  auto bad_value = run_moe_train(tiny({"--sweep", "moe.experts=2,zero", "--jsonl"}));
  EXPECT_EQ(bad_value.exit_status, 2);
  EXPECT_NE(bad_value.err.find("moe.experts: expected an integer, got \"zero\""), std::string::npos)
      << bad_value.err;
  EXPECT_EQ(bad_value.out, "");
}

}  // namespace
}  // namespace moe::test

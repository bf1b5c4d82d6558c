// moe-train plan as a user runs it: the per-r table of one layout, the scaling table, the JSON
// keys, the best layout, a shipped model's config by name, and exit status 2 with the reason for
// bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plan/hardware_profile.h"
#include "plan/layout_search.h"
#include "plan/shipped_configs.h"
#include "process.h"
#include "protocol/run_config.h"

namespace moe::test {
namespace {

using nlohmann::json;

const char* kConfig = R"({"name": "plan-e2e",
  "model": {"kind": "lm", "dim": 512, "layers": 4, "heads": 8, "seq_len": 256, "vocab": 256},
  "moe": {"experts": 16, "top_k": 2, "hidden": 1024, "every": 2},
  "train": {"batch_size": 256, "dtype": "bfloat16"}})";

TEST(PlanCommand, OneLayoutListsEveryRAndTheBest) {
  TempDir dir;
  const std::string config = dir.write("c.json", kConfig), out = dir.file("plan.json");
  const auto r = run_moe_train({"plan", "--config", config, "--profile", "h100-sxm",
                                "--nproc-per-node", "8", "--json", out});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("<- best"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("phases (ms)"), std::string::npos) << r.out;
  const json plan = json::parse(read_file(out));
  ASSERT_EQ(plan["layouts"].size(), 2u);  // r = 0 and r = 1 for 16 experts on 8 ranks
  for (const auto& l : plan["layouts"]) {
    for (const char* key :
         {"nodes", "nproc_per_node", "r", "step_ms", "tokens_per_s", "memory_bytes_per_rank",
          "a2a_bytes_per_step", "allreduce_bytes_per_step", "phases_ms", "fits"}) {
      EXPECT_TRUE(l.contains(key)) << key;
    }
    EXPECT_EQ(l["nproc_per_node"], 8);
    EXPECT_GT(l["step_ms"].get<double>(), 0);
  }
  // The command's figures are the library's.
  const auto c = protocol::config_from_json(json::parse(kConfig));
  const auto layouts = plan::layouts_for(c, 1, 8, plan::load_profile("h100-sxm"));
  const auto best = plan::best_of(layouts);
  EXPECT_EQ(plan["best"]["r"], best->layout.r);
  EXPECT_DOUBLE_EQ(plan["best"]["step_ms"].get<double>(), best->prediction.step_ms);
  EXPECT_GT(plan["layouts"][1]["a2a_bytes_per_step"].get<double>(), 0);  // r = 1 sends tokens
}

TEST(PlanCommand, ScalingTableGoesToTheLargestWorld) {
  TempDir dir;
  const std::string config = dir.write("c.json", kConfig), out = dir.file("plan.json");
  const auto r = run_moe_train({"plan", "--config", config, "--profile", "a100-sxm+roce-200g",
                                "--max-ranks", "64", "--json", out});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const json plan = json::parse(read_file(out));
  int64_t largest = 0;
  for (const auto& l : plan["layouts"]) {
    largest =
        std::max<int64_t>(largest, l["nodes"].get<int64_t>() * l["nproc_per_node"].get<int64_t>());
    if (l["nodes"].get<int64_t>() > 1) {
      EXPECT_EQ(l["nproc_per_node"], 8);
    }
  }
  EXPECT_EQ(largest, 64);
  EXPECT_NE(r.out.find("RoCE 200 GbE"), std::string::npos) << r.out;
}

TEST(PlanCommand, ShippedConfigByName) {
  TempDir dir;
  const std::string out = dir.file("plan.json");
  auto r = run_moe_train({"plan", "--config", "deepseek-v3", "--set", "model.layers=8", "--nodes",
                          "4", "--nproc-per-node", "8", "--json", out});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  // The command planned the shipped config with the override: the library's figures for it.
  protocol::RunConfig c = plan::shipped_config("deepseek-v3");
  c.model.layers = 8;
  const auto layouts = plan::layouts_for(c, 4, 8, plan::load_profile("h100-sxm"));
  const auto best = plan::best_of(layouts);
  const json plan = json::parse(read_file(out));
  EXPECT_EQ(plan["layouts"].size(), layouts.size());
  EXPECT_EQ(plan["best"]["r"], best->layout.r);
  EXPECT_DOUBLE_EQ(plan["best"]["step_ms"].get<double>(), best->prediction.step_ms);
  // Overrides are validated against the shipped config, which the messages name.
  r = run_moe_train({"plan", "--config", "mixtral-8x7b", "--set", "moe.top_k=0"});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("mixtral-8x7b (shipped): /moe/top_k"), std::string::npos) << r.err;
  // Neither a file nor a shipped name: the shipped names.
  r = run_moe_train({"plan", "--config", "deepseek-v4"});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("\"deepseek-v4\" is neither a file nor a shipped config"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("deepseek-v3, gpt-oss-120b, mixtral-8x7b, qwen3-30b-a3b"), std::string::npos)
      << r.err;
}

TEST(PlanCommand, BadInputExitsTwoWithTheReason) {
  TempDir dir;
  const std::string config = dir.write("c.json", kConfig);
  auto r = run_moe_train({"plan", "--config", config, "--profile", "tpu-v9"});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("no profile \"tpu-v9\""), std::string::npos) << r.err;
  r = run_moe_train({"plan", "--config", config, "--nproc-per-node", "3"});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("/moe/experts"), std::string::npos) << r.err;
  const std::string bad = dir.write("p.json", R"({"schema": 1, "kind": "device", "name": "x"})");
  r = run_moe_train({"plan", "--config", config, "--profile", bad});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("/device: missing"), std::string::npos) << r.err;
  r = run_moe_train({"plan", "--config", dir.write("bad.json", R"({"moe": {"top_k": 0}})")});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("/moe/top_k"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace moe::test

// One experiment on 1, 2 and 4 ranks over Gloo on 127.0.0.1 (`moe-train launch`): the same global
// batch gives the same losses, gradient norms and load metrics as one process (float64, tight
// tolerance), for expert parallelism, r = 0, replicated experts, and r chosen by "auto".
#include <gtest/gtest.h>

#include <cmath>

#include "distributed_fixtures.h"

namespace moe::test {
namespace {

// helloworld (one MoE layer) with drops: capacity_factor 1 routes k * N / E slots per expert.
nlohmann::json helloworld_f64() {
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4},
              {"top_k", 2},
              {"hidden", 24},
              {"capacity_factor", 1.0},
              {"fp32_gate", false}};  // float64 routing: tight tolerance
  c["train"].update({{"steps", 4}, {"batch_size", 8}, {"dtype", "float64"}, {"lr", 0.05}});
  return c;
}

// The lm model: attention and dense layers are data parallel, the MoE FFNs expert parallel.
nlohmann::json lm_f64() {
  nlohmann::json c = tiny_config("lm");
  c["moe"].update({{"experts", 4}, {"capacity_factor", 1.25}, {"fp32_gate", false}});
  c["train"].update(
      {{"steps", 3}, {"dtype", "float64"}, {"optimizer", "adamw"}, {"clip_grad_norm", 0.5}});
  return c;
}

// A decoder of the Hugging Face families (docs/MODELS.md): grouped-query attention with QK norm,
// a dense first layer, glu experts with a gated shared expert (Qwen2-MoE's), Mixtral's router,
// dropless, and transformers' aux loss over all layers (whose shares are the group's).
nlohmann::json decoder_f64() {
  nlohmann::json c = tiny_config("decoder");
  c["model"].update({{"dim", 32},
                     {"layers", 2},
                     {"heads", 4},
                     {"kv_heads", 2},
                     {"seq_len", 16},
                     {"vocab", 64},
                     {"qk_norm", "head"},
                     {"dense_layers", "0"}});
  c["moe"] = {{"experts", 4},
              {"top_k", 2},
              {"hidden", 24},
              {"activation", "silu"},
              {"expert_ffn", "glu"},
              {"fc1_bias", false},
              {"fc2_bias", false},
              {"capacity_factor", 0.0},
              {"router", "top_k_softmax"},
              {"fp32_gate", false},
              {"aux_loss", "hf_load_balancing"},
              {"shared_hidden", 16},
              {"shared_gate", true}};
  c["train"].update({{"steps", 4}, {"batch_size", 8}, {"dtype", "float64"}, {"lr", 0.01}});
  return c;
}

TEST(Distributed, DecoderFamiliesMatchOneProcess) {
  TempDir dir;
  auto config = decoder_f64();
  const auto one = run_on_ranks(dir, config, 1, "one");
  for (int ranks : {2, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_training(one, run_on_ranks(dir, config, ranks, "dec" + std::to_string(ranks)));
  }
  // Fewer experts than ranks: each expert's hidden units sharded over two ranks. A fixed capacity
  // (64 slots, even): dropless capacity is rounded up to the sharding there, and the expert_load
  // events would report the rounded one.
  config["moe"].update({{"experts", 2}, {"top_k", 1}, {"capacity_factor", 1.0}});
  expect_same_training(run_on_ranks(dir, config, 1, "one_sharded"),
                       run_on_ranks(dir, config, 4, "sharded4"));
}

// A DeepSeek-V3-like decoder: multi-head latent attention, a dense first layer, an ungated shared
// expert, sigmoid scores with group-limited routing (top2_sum groups), routed scaling, the
// selection bias moved by bias balancing after every step, and the sequence-wise balance loss.
TEST(Distributed, DeepSeekV3LikeMatchesOneProcess) {
  TempDir dir;
  auto config = decoder_f64();
  config["model"].update({{"attention", "mla"},
                          {"kv_heads", 0},
                          {"qk_norm", "none"},
                          {"rope_interleave", true},
                          {"q_lora_rank", 12},
                          {"kv_lora_rank", 8},
                          {"qk_rope_dim", 4},
                          {"qk_nope_dim", 6},
                          {"v_head_dim", 5}});
  config["moe"].update({{"experts", 8},
                        {"top_k", 2},
                        {"router", "group_limited_top_k"},
                        {"score_function", "sigmoid"},
                        {"expert_groups", 4},
                        {"topk_groups", 2},
                        {"group_score", "top2_sum"},
                        {"routed_scaling", 2.5},
                        {"shared_gate", false},
                        {"aux_loss", "seq_balance"},
                        {"bias_balancing", {{"enabled", true}, {"rate", 0.05}}}});
  const auto one = run_on_ranks(dir, config, 1, "one");
  for (int ranks : {2, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_training(one, run_on_ranks(dir, config, ranks, "ds" + std::to_string(ranks)));
  }
}

// A GPT-OSS-like decoder: biases everywhere, attention sinks, a sliding window in every other
// layer, YaRN, a biased router taking the softmax of its k best logits and clamped SwiGLU experts
// with biases; expert parallel on 2 ranks, and 2 experts sharded over 4 (the clamp and the
// biases per hidden unit).
TEST(Distributed, GptOssLikeMatchesOneProcess) {
  TempDir dir;
  auto config = decoder_f64();
  config["model"].update({{"qk_norm", "none"},
                          {"qkv_bias", true},
                          {"o_bias", true},
                          {"attention_sinks", true},
                          {"sliding_window", 5},
                          {"sliding_layers", "0"},
                          {"dense_layers", ""},
                          {"rope_scaling", "yarn"},
                          {"rope_factor", 8.0},
                          {"rope_original_max", 8}});
  config["moe"].update({{"gate_bias", true},
                        {"fc1_bias", true},
                        {"fc2_bias", true},
                        {"swiglu_limit", 0.05},
                        {"swiglu_alpha", 1.702},
                        {"shared_hidden", 0},
                        {"shared_gate", false}});
  expect_same_training(run_on_ranks(dir, config, 1, "one"), run_on_ranks(dir, config, 2, "two"));
  config["moe"].update({{"experts", 2}, {"top_k", 1}, {"capacity_factor", 1.0}});
  expect_same_training(run_on_ranks(dir, config, 1, "one_sharded"),
                       run_on_ranks(dir, config, 4, "sharded4"));
}

TEST(Distributed, ExpertParallelMatchesOneProcess) {
  TempDir dir;
  const auto config = helloworld_f64();
  const auto one = run_on_ranks(dir, config, 1, "one");
  for (int ranks : {2, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    expect_same_training(one, run_on_ranks(dir, config, ranks, "ep" + std::to_string(ranks)));
  }
}

TEST(Distributed, LanguageModelMatchesOneProcess) {
  TempDir dir;
  auto config = lm_f64();
  expect_same_training(run_on_ranks(dir, config, 1, "one"), run_on_ranks(dir, config, 2, "two"));
  // Gradients averaged once per optimizer step, after the last micro-batch.
  config["train"]["grad_accum"] = 2;
  expect_same_training(run_on_ranks(dir, config, 1, "one_accum"),
                       run_on_ranks(dir, config, 2, "two_accum"));
}

TEST(Distributed, RoutingOptionsAcrossRanksMatchOneProcess) {
  TempDir dir;
  auto config = helloworld_f64();
  config["moe"].update({{"gate_noise", 1.0},
                        {"batch_prioritized_routing", true},
                        {"aux_loss", "load_importance"},
                        {"capacity_factor", 0.0},
                        {"bias_balancing", {{"enabled", true}, {"rate", 0.05}}}});
  expect_same_training(run_on_ranks(dir, config, 1, "one"), run_on_ranks(dir, config, 2, "two"));
}

TEST(Distributed, ReplicatedExpertsAndRZeroMatchOneProcess) {
  TempDir dir;
  auto config = helloworld_f64();
  const auto one = run_on_ranks(dir, config, 1, "one");
  config["parallel"] = {{"adaptive_r", 0}};
  expect_same_training(one, run_on_ranks(dir, config, 2, "r0"));
  config["parallel"] = {{"expert_parallel", false}};
  expect_same_training(one, run_on_ranks(dir, config, 2, "replicated"));
}

// Two experts on four ranks: each expert sharded over two ranks (its hidden units split), for
// every r the layout admits. capacity_factor 1 gives C = 2 * 64, a multiple of the shards.
TEST(Distributed, ShardedExpertsMatchOneProcessForEveryR) {
  TempDir dir;
  auto config = helloworld_f64();
  config["moe"]["experts"] = 2;
  const auto one = run_on_ranks(dir, config, 1, "one");
  for (int r : {0, 1, 2}) {
    SCOPED_TRACE("r = " + std::to_string(r));
    config["parallel"] = {{"adaptive_r", r}};
    expect_same_training(one, run_on_ranks(dir, config, 4, "r" + std::to_string(r)));
  }
}

// The all-to-all overlapped with the experts in 2 and 4 chunks: the results of degree 1.
TEST(Distributed, OverlapDegreeChangesNothing) {
  TempDir dir;
  auto config = helloworld_f64();
  config["moe"]["experts"] = 8;
  const auto plain = run_on_ranks(dir, config, 4, "d1");
  for (int degree : {2, 4}) {
    SCOPED_TRACE("degree " + std::to_string(degree));
    config["parallel"] = {{"a2a_overlap_degree", degree}};
    expect_same_training(plain, run_on_ranks(dir, config, 4, "d" + std::to_string(degree)));
  }
}

TEST(Distributed, AutoRSettlesOnAValidRAndChangesNothing) {
  TempDir dir;
  auto config = helloworld_f64();
  config["train"]["steps"] = 8;
  const auto one = run_on_ranks(dir, config, 1, "one");
  config["parallel"] = {{"adaptive_r", "auto"}};
  const auto autor = run_on_ranks(dir, config, 2, "auto");
  expect_same_training(one, autor);
  const auto decisions = events_of_type(autor.events, "adaptive_r");
  ASSERT_EQ(decisions.size(), 1u);
  const int64_t r = decisions[0]["r"];
  EXPECT_TRUE(r == 0 || r == 1) << r;
  EXPECT_EQ(decisions[0]["tried"].size(), 2u);
  EXPECT_EQ(decisions[0]["step"], 6);  // 3 steps for each of r = 0 and r = 1
}

TEST(Distributed, RankZeroSpeaksAndEveryRankLogs) {
  TempDir dir;
  const auto run = run_on_ranks(dir, helloworld_f64(), 2, "two");
  EXPECT_EQ(events_of_type(run.events, "run_start").size(), 1u);
  EXPECT_EQ(events_of_type(run.events, "run_start")[0]["world_size"], 2);
  const auto ranks = events_of_type(run.events, "ranks");
  ASSERT_EQ(ranks.size(), 4u);
  for (const auto& e : ranks) {
    ASSERT_EQ(e["ranks"].size(), 2u);
    for (int q = 0; q < 2; ++q) {
      EXPECT_EQ(e["ranks"][q]["rank"], q);
      EXPECT_GT(e["ranks"][q]["step_ms"].get<double>(), 0.0);
      EXPECT_GT(e["ranks"][q]["a2a_ms"].get<double>(), 0.0);  // expert parallel: tokens travel
      EXPECT_EQ(e["ranks"][q]["tokens"], 8 * 16 / 2);
      EXPECT_GT(e["ranks"][q]["peak_bytes"].get<int64_t>(), 0);
    }
  }
  for (const auto& p : events_of_type(run.events, "phases")) EXPECT_GT(p["ms"]["a2a"], 0.0);
  EXPECT_FALSE(read_file(run.dir + "/stderr.log").empty());
  EXPECT_NE(read_file(run.dir + "/stderr.rank1.log").find("rank 1 of 2"), std::string::npos);
  EXPECT_NE(run.err.find("[rank 1] "), std::string::npos) << run.err;
}

}  // namespace
}  // namespace moe::test

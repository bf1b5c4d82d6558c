// The planner's counts for GPT-OSS's keys (docs/PLANNER.md, "GPT-OSS"): the biases and sinks as
// parameters, the explicit attention path that sinks and sliding windows take in the engine
// (core/engine/model/causal_attention.cpp) as FLOPs and activations, worked out by hand for a
// tiny config; and the shipped GPT-OSS-120B config against OpenAI's published counts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plan/attention_counts.h"
#include "plan/config_estimates.h"
#include "plan/op_counts.h"
#include "plan/shipped_configs.h"
#include "plan/step_counts.h"

namespace moe::plan {
namespace {

// M = 16, 2 blocks, 4 heads of 4 with 2 key/value heads (q 16, k and v 8 wide), q/k/v and o
// biases, vocabulary 32 untied; 4 glu experts of H = 8 with biases, top-2, a router with a bias.
// seq_len 8, batch 2: 16 tokens. No sinks and no window: both blocks run causal SDPA.
protocol::RunConfig tiny_gpt_oss() {
  return protocol::config_from_json(nlohmann::json::parse(R"({
    "model": { "kind": "decoder", "family": "gpt_oss", "dim": 16, "layers": 2, "heads": 4,
               "kv_heads": 2, "seq_len": 8, "vocab": 32, "tie_embeddings": false,
               "qkv_bias": true, "o_bias": true },
    "moe": { "experts": 4, "top_k": 2, "hidden": 8, "expert_ffn": "glu", "activation": "silu",
             "fc1_bias": true, "fc2_bias": true, "router": "top_k_softmax", "gate_bias": true,
             "swiglu_limit": 7.0, "capacity_factor": 1.0 },
    "train": { "batch_size": 2, "dtype": "float32" }
  })"));
}

TEST(PlanGptOss, BiasesAndSinksAsTheModelRegistersThem) {
  protocol::RunConfig c = tiny_gpt_oss();
  c.model.attention_sinks = true;
  ASSERT_TRUE(can_estimate(c));
  // q 16x16, k and v 16x8, o 16x16; biases 16 + 8 + 8 and o's 16; one sink per head.
  const double attention = 256 + 128 + 128 + 256 + 32 + 16 + 4;
  EXPECT_DOUBLE_EQ(attention_parameters(c), attention);
  const ParameterEstimate p = estimate_parameters(c);
  // Per MoE layer: gate, up, down 3 x 4 x 8 x 16, gate and up biases 2 x 4 x 8, down's 4 x 16.
  EXPECT_DOUBLE_EQ(p.experts, 2 * (1536 + 64 + 64.0));
  // Embedding and head 32 x 16 each; per block two RMSNorms and the attention; the router
  // 4 x 16 and its bias 4; the final norm.
  EXPECT_DOUBLE_EQ(p.dense, 512 + 2 * (32 + attention + 64 + 4) + 16 + 512);
  EXPECT_DOUBLE_EQ(p.active, p.dense + p.experts / 2);
  // Embedding; per block 2 norms, q/k/v/o, their 4 biases and the sinks; per MoE layer the
  // router and its bias, gate/up/down and their 3 biases; final norm; head.
  EXPECT_DOUBLE_EQ(parameter_tensors(c), 1 + 2 * (2 + 9) + 2 * (2 + 6) + 1 + 1);
}

TEST(PlanGptOss, SlidingLayersCountTheEnginesExplicitAttention) {
  const protocol::RunConfig plain = tiny_gpt_oss();
  protocol::RunConfig sliding = plain;
  sliding.model.sliding_window = 4;  // T = 8 > 4
  sliding.model.sliding_layers = "0";
  EXPECT_DOUBLE_EQ(explicit_attention_blocks(plain), 0);
  EXPECT_DOUBLE_EQ(explicit_attention_blocks(sliding), 1);
  // Causal SDPA: 2 T q = 2 x 8 x 16 per token and block. The sliding block's explicit path
  // computes the whole [T, T] square (4 T q) and masks the window afterwards, so the mean over the
  // two blocks is 3 T q: a window makes this engine's layer dearer, not cheaper.
  EXPECT_DOUBLE_EQ(causal_score_flops_per_token(plain), 256);
  EXPECT_DOUBLE_EQ(causal_score_flops_per_token(sliding), 384);
  protocol::RunConfig narrower = sliding;
  narrower.model.sliding_window = 2;  // the window bounds what a query sees, not the work
  EXPECT_DOUBLE_EQ(causal_score_flops_per_token(narrower), 384);
  const StepCounts s = count_step(sliding, Layout{});
  EXPECT_DOUBLE_EQ(s.attention.flops, 16 * (512 + 256.0));  // 16 tokens, one block of each
  EXPECT_DOUBLE_EQ(s.model_flops, estimate(sliding).flops.total());

  // Saved: the explicit block's softmax output, heads x T = 32 per token, and its [T, T] boolean
  // mask, in place of SDPA's float32 log-sum-exp (samples x heads x T).
  EXPECT_DOUBLE_EQ(
      attention_saved_elements_per_token(sliding) - attention_saved_elements_per_token(plain),
      32.0 / 2);  // the mean over the two blocks
  EXPECT_DOUBLE_EQ(estimate(sliding).memory.activations - estimate(plain).memory.activations,
                   16 * 32 * 4.0 + 8 * 8 - 4.0 * 2 * 4 * 8);

  // Sinks send every block down the explicit path, with the sink's column in the softmax.
  protocol::RunConfig sinks = sliding;
  sinks.model.attention_sinks = true;
  EXPECT_DOUBLE_EQ(explicit_attention_blocks(sinks), 2);
  EXPECT_DOUBLE_EQ(causal_score_flops_per_token(sinks), 512);
  EXPECT_DOUBLE_EQ(
      attention_saved_elements_per_token(sinks) - attention_saved_elements_per_token(plain),
      4 * (8 + 1.0));
  // The cache keeps every position of every layer, sliding or not: 2 x 2 x (k + v 8) float32.
  EXPECT_DOUBLE_EQ(estimate(sinks).kv_cache_bytes_per_token, 2 * 16 * 4.0);
}

// OpenAI, "gpt-oss-120b & gpt-oss-20b Model Card" (2025-08-05, arXiv:2508.10925), its table of
// parameter counts: 116.83B total, 5.13B active per token, MLP 114.71B, attention 0.96B,
// embedding and unembedding 1.16B: each count here must round to the published figure (within
// 0.005B of it; 0.004 % of the total, 0.1 % of the active count).
TEST(PlanGptOss, GptOss120bAgainstThePublishedCounts) {
  const protocol::RunConfig c = shipped_config("gpt-oss-120b");
  const ParameterEstimate p = estimate_parameters(c);
  // By hand from the Hugging Face config: per layer q 2880 x 4096, k and v 2880 x 512, o 4096 x
  // 2880, biases 4096 + 2 x 512 + 2880, 64 sinks; norms 2 x 2880; router 128 x 2880 + 128;
  // 128 experts of gate_up 2880 x 5760 + 5760 and down 2880 x 2880 + 2880; embedding and head
  // 2 x 201088 x 2880; final norm.
  const double attention = 2880 * 4096 * 2.0 + 2880 * 512 * 2.0 + 4096 + 1024 + 2880 + 64;
  const double experts = 36 * 128 * (2880 * 5760.0 + 5760 + 2880 * 2880.0 + 2880);
  const double router = 128 * 2880.0 + 128, embedding = 201088 * 2880.0;
  EXPECT_DOUBLE_EQ(attention_parameters(c), attention);
  EXPECT_DOUBLE_EQ(p.experts, experts);
  EXPECT_DOUBLE_EQ(p.dense, 36 * (attention + 2 * 2880 + router) + 2 * embedding + 2880);
  EXPECT_DOUBLE_EQ(p.total(), 116829156672.0);
  auto expect_rounds_to = [](double value, double published_billions) {
    EXPECT_NEAR(value / 1e9, published_billions, 0.005) << value;
  };
  expect_rounds_to(p.total(), 116.83);
  expect_rounds_to(p.experts + 36 * router, 114.71);  // "MLP": the experts and the router
  expect_rounds_to(36 * attention, 0.96);             // 0.956B
  expect_rounds_to(2 * embedding, 1.16);
  // 4 of 128 experts per layer: 5.71B with the embedding as the other cards count it; OpenAI's
  // 5.13B leaves out the embedding (a lookup) and keeps the unembedding.
  EXPECT_DOUBLE_EQ(p.active, p.dense + experts * 4 / 128);
  expect_rounds_to(p.active - embedding, 5.13);
  EXPECT_GT(p.active, 5.7e9);
  // Sinks in every layer: all 36 take the explicit path; the cache 36 x 2 x 512 bfloat16.
  EXPECT_DOUBLE_EQ(explicit_attention_blocks(c), 36);
  EXPECT_DOUBLE_EQ(estimate(c).kv_cache_bytes_per_token, 36 * 1024 * 2.0);
}

}  // namespace
}  // namespace moe::plan

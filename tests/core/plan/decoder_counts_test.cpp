// The planner's counts for model.kind "decoder" and glu experts (docs/PLANNER.md, "Decoder"):
// parameters (total and active per token), FLOPs, the step's attention and experts, and the
// shipped configs of Mixtral 8x7B and Qwen3-30B-A3B against their published parameter counts.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "plan/config_estimates.h"
#include "plan/op_counts.h"
#include "plan/shipped_configs.h"
#include "plan/step_counts.h"
#include "protocol/config_validation.h"

namespace moe::plan {
namespace {

using protocol::ExpertFfn;
using protocol::ModelKind;

// M = 16, 3 blocks (block 1 dense), 4 heads of 4 with 2 key/value heads, vocabulary 64 untied,
// q/k/v biases, per-head qk-norm; 4 glu experts of H = 8 without biases, top-2; a shared expert
// of S = 12 with its gate; the dense block's gated MLP 24 wide. seq_len 8, batch 2: 16 tokens.
protocol::RunConfig tiny_decoder() {
  protocol::RunConfig c;
  c.model.kind = ModelKind::Decoder;
  c.model.dim = 16;
  c.model.layers = 3;
  c.model.heads = 4;
  c.model.kv_heads = 2;
  c.model.seq_len = 8;
  c.model.vocab = 64;
  c.model.tie_embeddings = false;
  c.model.qkv_bias = true;
  c.model.qk_norm = protocol::QkNorm::Head;
  c.model.dense_layers = "1";
  c.model.dense_hidden = 24;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  c.moe.hidden = 8;
  c.moe.expert_ffn = ExpertFfn::Glu;
  c.moe.fc1_bias = false;
  c.moe.fc2_bias = false;
  c.moe.shared_hidden = 12;
  c.moe.shared_gate = true;
  c.moe.capacity_factor = 1.0;
  c.train.batch_size = 2;
  c.train.dtype = protocol::Dtype::Float32;
  return c;
}

TEST(PlanDecoder, ParametersAsTheModelRegistersThem) {
  const protocol::RunConfig c = tiny_decoder();
  EXPECT_TRUE(can_estimate(c));
  EXPECT_EQ(moe_layer_count(c), 2);  // blocks 0 and 2
  const ParameterEstimate p = estimate_parameters(c);
  // Experts: 2 MoE layers x gate, up, down [E, H, M] = 2 x 3 x 4 x 8 x 16.
  EXPECT_DOUBLE_EQ(p.experts, 2.0 * 3 * 4 * 8 * 16);
  // Per block: two RMSNorms 2 x 16; q 16x16, k and v 8x16, o 16x16, biases 16 + 8 + 8, q/k norms
  // 2 x 4. Per MoE layer: gate 4 x 16, shared gate/up/down 3 x 12 x 16, shared gate 16. The dense
  // block: 3 x 24 x 16. Embedding, head 64 x 16 each, final norm 16.
  const double block = 32 + (256 + 128 + 128 + 256) + 32 + 8;
  const double moe = 64 + 3 * 12 * 16 + 16;
  EXPECT_DOUBLE_EQ(p.dense, 1024 + 3 * block + 2 * moe + 3 * 24 * 16 + 16 + 1024);
  // Active: every dense parameter and 2 of the 4 experts.
  EXPECT_DOUBLE_EQ(p.active, p.dense + p.experts / 2);
  protocol::RunConfig tied = c;
  tied.model.tie_embeddings = true;
  EXPECT_DOUBLE_EQ(estimate_parameters(tied).dense, p.dense - 1024);
  protocol::RunConfig full = c;
  full.model.qk_norm = protocol::QkNorm::Full;  // over all heads: [16] and [8]
  EXPECT_DOUBLE_EQ(estimate_parameters(full).dense, p.dense + 3 * (16 + 8 - 8));
  // Embedding, 3 x (2 norms, 4 projections, 3 biases, 2 qk norms), 2 x (gate, 3 experts, 3
  // shared, shared gate), 3 dense, final norm, head.
  EXPECT_DOUBLE_EQ(parameter_tensors(c), 1 + 3 * 11 + 2 * 8 + 3 + 1 + 1);
}

TEST(PlanDecoder, FlopsKvCacheAndActivations) {
  const protocol::RunConfig c = tiny_decoder();
  const ConfigEstimates e = estimate(c);
  EXPECT_DOUBLE_EQ(e.tokens_per_step, 16);
  // Forward per token: per block q, k, v, o 2 x 16 x (2 x 16 + 2 x 8) and causal scores
  // 2 x T x heads x head_dim = 2 x 8 x 16; per MoE layer gate 2 x 4 x 16 and shared expert
  // 6 x 16 x 12 + 2 x 16; the dense MLP 6 x 16 x 24; the head 2 x 64 x 16.
  const double per_token =
      3 * (2 * 16 * 48 + 2 * 8 * 16) + 2 * (128 + 1152 + 32) + 6 * 16 * 24 + 2 * 64 * 16;
  EXPECT_DOUBLE_EQ(e.flops.dense, 3 * 16 * per_token);
  // Experts: glu is three GEMMs, 3 x 6 x N x k' x M x H per MoE layer.
  EXPECT_DOUBLE_EQ(e.flops.experts, 2 * 3 * 6.0 * 16 * 2 * 16 * 8);
  // Keys and values: 2 x kv_heads x head_dim per layer, float32.
  EXPECT_DOUBLE_EQ(e.kv_cache_bytes_per_token, 3 * 2 * 8 * 4.0);
  EXPECT_GT(e.memory.activations, 0);
}

TEST(PlanDecoder, StepCountsAttentionAndGluExperts) {
  const StepCounts s = count_step(tiny_decoder(), Layout{});
  // N = 16, E = 4, k = 2: Cs = 2 x ceil(16 / 4) = 8.
  EXPECT_EQ(s.capacity_slots, 8);
  // 3 GEMMs of 2 E Cs M H FLOPs per MoE layer.
  EXPECT_DOUBLE_EQ(s.experts.flops, 2 * 3 * 2.0 * 4 * 8 * 16 * 8);
  EXPECT_DOUBLE_EQ(s.experts_backward.flops, 2 * s.experts.flops);  // the input needs its gradient
  // Causal attention: 3 layers x 16 tokens x 2 x 8 x 16, per head [T, hd] x [hd, T].
  EXPECT_DOUBLE_EQ(s.attention.flops, 3 * 16 * 2.0 * 8 * 16);
  EXPECT_EQ(s.attention.batch, 2 * 4);
  EXPECT_EQ(s.attention.k, 4);
  EXPECT_EQ(s.other.n, 24);  // the widest of q (16), the shared expert (12), the dense MLP (24)
  EXPECT_DOUBLE_EQ(s.model_flops, estimate(tiny_decoder()).flops.total());
}

TEST(PlanDecoder, GluExpertsInTheOtherKinds) {
  protocol::RunConfig c;
  c.model.kind = ModelKind::HelloWorld;
  c.model.dim = 16;
  c.model.seq_len = 4;
  c.moe.experts = 4;
  c.moe.hidden = 8;
  c.moe.capacity_factor = 1.0;
  c.train.batch_size = 2;
  const StepCounts mlp = count_step(c, Layout{});
  c.moe.expert_ffn = ExpertFfn::Glu;
  // gate, up, down and the biases of gate and up [E, H] and down [E, M].
  EXPECT_DOUBLE_EQ(expert_parameters(c), 3.0 * 4 * 8 * 16 + 2 * 4 * 8 + 4 * 16);
  EXPECT_DOUBLE_EQ(expert_tensors(c), 6);
  const StepCounts glu = count_step(c, Layout{});
  EXPECT_DOUBLE_EQ(glu.experts.flops, 1.5 * mlp.experts.flops);
  // helloworld's layer takes the data itself: no input gradient, so four of glu's six backward
  // GEMMs (mlp: three of four).
  EXPECT_DOUBLE_EQ(glu.experts_backward.flops, 2 * glu.experts.flops * 4 / 6);
  EXPECT_DOUBLE_EQ(mlp.experts_backward.flops, 2 * mlp.experts.flops * 3 / 4);
  c.model.kind = ModelKind::Lm;
  c.model.layers = 2;
  c.model.heads = 2;
  const ParameterEstimate lm = estimate_parameters(c);
  EXPECT_DOUBLE_EQ(lm.experts, 2 * expert_parameters(c));
  EXPECT_DOUBLE_EQ(lm.active, lm.dense + lm.experts * 2 / 4);  // top-2 of 4
}

// |value / published - 1| within `tolerance`.
void expect_near_published(double value, double published, double tolerance) {
  EXPECT_LE(std::abs(value / published - 1), tolerance) << value << " against " << published;
}

TEST(PlanDecoder, ShippedConfigsValidate) {
  ASSERT_EQ(shipped_config_names(), (std::vector<std::string>{"deepseek-v3", "gpt-oss-120b",
                                                              "mixtral-8x7b", "qwen3-30b-a3b"}));
  protocol::ValidateOptions options;
  options.check_files = false;
  for (const auto& name : shipped_config_names()) {
    const auto problems = protocol::validate(shipped_config(name), options);
    EXPECT_TRUE(problems.empty()) << name << ": " << problems.front().pointer << " "
                                  << problems.front().message;
  }
  EXPECT_THROW(shipped_config("mixtral"), std::invalid_argument);
}

// Mistral AI, "Mixtral of experts" (mistral.ai/news/mixtral-of-experts, 2023-12-11): 46.7B total
// parameters, 12.9B used per token.
TEST(PlanDecoder, Mixtral8x7bAgainstThePublishedCounts) {
  const protocol::RunConfig c = shipped_config("mixtral-8x7b");
  const ParameterEstimate p = estimate_parameters(c);
  // Counted by hand from the Hugging Face config: embedding and head 2 x 32000 x 4096; per layer
  // attention 2 x 4096 x 4096 + 2 x 4096 x 1024, norms 2 x 4096, gate 8 x 4096, 8 experts of
  // 3 x 4096 x 14336; final norm.
  EXPECT_DOUBLE_EQ(p.total(), 46702792704.0);
  expect_near_published(p.total(), 46.7e9, 0.01);
  expect_near_published(p.active, 12.9e9, 0.01);
}

// Qwen, model card of Qwen/Qwen3-30B-A3B (huggingface.co/Qwen/Qwen3-30B-A3B): 30.5B parameters
// in total, 3.3B activated, 29.9B non-embedding.
TEST(PlanDecoder, Qwen3_30bA3bAgainstThePublishedCounts) {
  const protocol::RunConfig c = shipped_config("qwen3-30b-a3b");
  const ParameterEstimate p = estimate_parameters(c);
  EXPECT_DOUBLE_EQ(p.total(), 30532122624.0);
  expect_near_published(p.total(), 30.5e9, 0.01);
  const double embeddings = 2 * 151936.0 * 2048;  // embedding and untied head
  expect_near_published(p.total() - embeddings, 29.9e9, 0.01);
  // 3.353B by this count: the card's 3.3B is truncated to one decimal (1.6 % under it).
  EXPECT_GE(p.active, 3.3e9);
  EXPECT_LT(p.active, 3.4e9);
  EXPECT_DOUBLE_EQ(p.active, 3353032704.0);
}

}  // namespace
}  // namespace moe::plan

// The planner's counts for multi-head latent attention (model.attention "mla", docs/PLANNER.md,
// "The decoder"): parameters, FLOPs, KV cache, activations and the step's attention worked out by
// hand for a tiny config, and the shipped DeepSeek-V3 config against its published counts.
#include <gtest/gtest.h>

#include <cmath>

#include "plan/attention_counts.h"
#include "plan/config_estimates.h"
#include "plan/op_counts.h"
#include "plan/shipped_configs.h"
#include "plan/step_counts.h"

namespace moe::plan {
namespace {

// M = 16, 2 blocks (block 0 dense, 24 wide), 2 heads of qk_nope 6 + qk_rope 4 and values of 5, a
// query latent of 8 and a key/value latent of 6; vocabulary 32 untied; 4 glu experts of H = 8,
// top-2 in 2 groups (group-limited routing), an ungated shared expert of S = 8. seq_len 8, batch
// 2: 16 tokens.
protocol::RunConfig tiny_mla() {
  protocol::RunConfig c;
  c.model.kind = protocol::ModelKind::Decoder;
  c.model.attention = protocol::AttentionKind::Mla;
  c.model.dim = 16;
  c.model.layers = 2;
  c.model.heads = 2;
  c.model.q_lora_rank = 8;
  c.model.kv_lora_rank = 6;
  c.model.qk_rope_dim = 4;
  c.model.qk_nope_dim = 6;
  c.model.v_head_dim = 5;
  c.model.seq_len = 8;
  c.model.vocab = 32;
  c.model.tie_embeddings = false;
  c.model.dense_layers = "0";
  c.model.dense_hidden = 24;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  c.moe.hidden = 8;
  c.moe.expert_ffn = protocol::ExpertFfn::Glu;
  c.moe.fc1_bias = false;
  c.moe.fc2_bias = false;
  c.moe.router = protocol::RouterKind::GroupLimitedTopK;
  c.moe.expert_groups = 2;
  c.moe.topk_groups = 1;
  c.moe.shared_hidden = 8;
  c.moe.shared_gate = false;
  c.moe.capacity_factor = 1.0;
  c.train.batch_size = 2;
  c.train.dtype = protocol::Dtype::Float32;
  return c;
}

TEST(PlanMla, ParametersAsTheModelRegistersThem) {
  const protocol::RunConfig c = tiny_mla();
  ASSERT_TRUE(can_estimate(c));
  // q_a_proj 16 x 8, q_a_layernorm 8, q_b_proj 8 x 2 x (6 + 4), kv_a_proj_with_mqa 16 x (6 + 4),
  // kv_a_layernorm 6, kv_b_proj 6 x 2 x (6 + 5), o_proj 2 x 5 x 16.
  const double attention = 128 + 8 + 160 + 160 + 6 + 132 + 160;
  EXPECT_DOUBLE_EQ(attention_parameters(c), attention);
  const ParameterEstimate p = estimate_parameters(c);
  EXPECT_DOUBLE_EQ(p.experts, 3.0 * 4 * 8 * 16);  // one MoE layer: gate, up, down [E, H, M]
  // Embedding and head 32 x 16 each; per block two RMSNorms and the attention; the dense block's
  // MLP 3 x 24 x 16; the MoE layer's router 4 x 16 and shared expert 3 x 8 x 16 (no gate, and
  // group-limited routing adds no parameter); the final norm.
  EXPECT_DOUBLE_EQ(p.dense, 512 + 2 * (32 + attention) + 3 * 24 * 16 + 64 + 3 * 8 * 16 + 16 + 512);
  EXPECT_DOUBLE_EQ(p.active, p.dense + p.experts / 2);
  // Without a query latent: q_proj 16 x 20 instead of q_a_proj, its norm and q_b_proj.
  protocol::RunConfig full_q = c;
  full_q.model.q_lora_rank = 0;
  EXPECT_DOUBLE_EQ(estimate_parameters(full_q).dense, p.dense + 2 * (320 - 296));
  // Embedding; per block 2 norms and q_a, q_a_layernorm, q_b, kv_a, kv_a_layernorm, kv_b, o;
  // the dense MLP's 3; the router, 3 experts and 3 shared; final norm; head.
  EXPECT_DOUBLE_EQ(parameter_tensors(c), 1 + 2 * 9 + 3 + 7 + 1 + 1);
  EXPECT_DOUBLE_EQ(parameter_tensors(full_q), parameter_tensors(c) - 2 * 2);
}

TEST(PlanMla, FlopsKvCacheAndActivations) {
  const protocol::RunConfig c = tiny_mla();
  const ConfigEstimates e = estimate(c);
  // Forward per token: per block the projections 2 x (128 + 160 + 160 + 132 + 160) and the causal
  // scores T x heads x (qk 10 + v 5) = 8 x 2 x 15; the dense MLP 6 x 16 x 24; the MoE layer's
  // router 2 x 4 x 16 and shared expert 6 x 16 x 8; the head 2 x 32 x 16.
  EXPECT_DOUBLE_EQ(attention_projection_flops_per_token(c), 1480);
  EXPECT_DOUBLE_EQ(causal_score_flops_per_token(c), 240);
  const double per_token = 2 * (1480 + 240) + 2304 + 128 + 768 + 1024;
  EXPECT_DOUBLE_EQ(e.flops.dense, 3 * 16 * per_token);
  // The cache keeps the normed latent and the shared rotary key: 6 + 4 per layer, float32.
  EXPECT_DOUBLE_EQ(e.kv_cache_bytes_per_token, 2 * (6 + 4) * 4.0);
  // Saved per token and block: query latent and its norm 2 x 8; queries 20, their rotated part
  // 2 x 4 and the concatenated queries 20; compressed 10, normed latent 6, rotated key 4;
  // expanded keys and values 2 x (6 + 5) = 22, concatenated keys 20; output 2 x 5.
  EXPECT_DOUBLE_EQ(attention_saved_elements_per_token(c),
                   16 + 20 + 8 + 20 + 10 + 6 + 4 + 22 + 20 + 10);
  protocol::RunConfig wider_latent = c;
  wider_latent.model.kv_lora_rank = 10;  // +4 compressed, +4 normed; kv_b's output unchanged
  EXPECT_DOUBLE_EQ(estimate(wider_latent).memory.activations - e.memory.activations,
                   2 * 16 * 8 * 4.0);  // 2 blocks x 16 tokens x 8 elements x float32
}

TEST(PlanMla, StepCountsAttention) {
  const protocol::RunConfig c = tiny_mla();
  const StepCounts s = count_step(c, Layout{});
  EXPECT_DOUBLE_EQ(s.attention.flops, 2 * 16 * 240.0);  // 2 blocks x 16 tokens
  EXPECT_EQ(s.attention.batch, 2 * 2);                  // samples x heads
  EXPECT_EQ(s.attention.k, 10);                         // QK^T over qk_nope + qk_rope
  // The widest GEMM: the dense MLP (24) over kv_b_proj's 22 and q_b_proj's 20.
  EXPECT_EQ(s.other.n, 24);
  EXPECT_EQ(widest_attention_projection(c), 22);
  EXPECT_DOUBLE_EQ(s.model_flops, estimate(c).flops.total());
}

// |value / published - 1|.
double relative_error(double value, double published) {
  return std::abs(value / published - 1);
}

// DeepSeek-AI, "DeepSeek-V3 Technical Report" (arXiv:2412.19437): 671B total parameters, 37B
// activated per token, besides the 14B of the multi-token prediction module (not counted here:
// the config has no MTP layer).
TEST(PlanMla, DeepSeekV3AgainstThePublishedCounts) {
  const protocol::RunConfig c = shipped_config("deepseek-v3");
  const ParameterEstimate p = estimate_parameters(c);
  // By hand from the Hugging Face config: per layer attention 7168 x 1536 + 1536 + 1536 x 128 x
  // 192 + 7168 x 576 + 512 + 512 x 128 x 256 + 128 x 128 x 7168 = 187,107,328 and norms
  // 2 x 7168; 3 dense MLPs 3 x 7168 x 18432; 58 MoE layers of router 256 x 7168, shared expert
  // 3 x 2048 x 7168 and 256 experts 3 x 2048 x 7168; embedding and head 2 x 129280 x 7168; final
  // norm.
  const double experts = 58 * 256 * 3 * 2048.0 * 7168;
  const double dense = 61 * (187107328.0 + 2 * 7168) + 3 * 3 * 7168 * 18432.0 +
                       58 * (256 * 7168.0 + 3 * 2048 * 7168.0) + 2 * 129280 * 7168.0 + 7168;
  EXPECT_DOUBLE_EQ(p.experts, experts);
  EXPECT_DOUBLE_EQ(p.dense, dense);
  EXPECT_DOUBLE_EQ(p.total(), 671026404352.0);
  EXPECT_LE(relative_error(p.total(), 671e9), 0.01);
  // 8 of 256 routed experts: 37.55B with the embedding (as the other cards count), which the
  // report's "37B" truncates; the embedding's 0.93B is a lookup, and without it 36.63B.
  EXPECT_DOUBLE_EQ(p.active, dense + experts * 8 / 256);
  EXPECT_GE(p.active, 37e9);
  EXPECT_LT(p.active, 38e9);
  EXPECT_LT(p.active - 129280 * 7168.0, 37e9);
  // The compressed cache: 61 x (512 + 64) bfloat16 values per token.
  EXPECT_DOUBLE_EQ(estimate(c).kv_cache_bytes_per_token, 61 * 576 * 2.0);
}

}  // namespace
}  // namespace moe::plan

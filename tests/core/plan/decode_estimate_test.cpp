// The planner's decode prediction (docs/PLANNER.md, "Decode"): bytes read, FLOPs and memory of a
// decode step worked out by hand for a tiny Mixtral-like decoder on a round-figure profile.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "plan/attention_counts.h"
#include "plan/decode_estimate.h"
#include "plan/shipped_configs.h"

namespace moe::plan {
namespace {

// M = 16, 2 MoE blocks, 4 heads of 4 with 2 key/value heads (q 16, k and v 8 wide), vocabulary
// 64 untied; 4 glu experts of H = 8 without biases, top-2.
protocol::RunConfig tiny_mixtral() {
  return protocol::config_from_json(nlohmann::json::parse(R"({
    "model": { "kind": "decoder", "dim": 16, "layers": 2, "heads": 4, "kv_heads": 2,
               "vocab": 64, "tie_embeddings": false },
    "moe": { "experts": 4, "top_k": 2, "hidden": 8, "expert_ffn": "glu", "fc1_bias": false,
             "fc2_bias": false },
    "train": { "dtype": "float32" }
  })"));
}

// 1 TB/s, 1 PFLOP/s reached in full, no fixed cost per operation, 1 GB.
HardwareProfile round_profile() {
  HardwareProfile p;
  p.name = "round";
  p.device.peak_flops_float32 = 1e15;
  p.device.peak_flops_bfloat16 = 1e15;
  p.device.gemm_efficiency = 1.0;
  p.device.memory_bandwidth = 1e12;
  p.device.memory_bytes = 1e9;
  p.device.op_overhead_s = 0;
  return p;
}

TEST(PlanDecode, OneSequenceReadsTheDenseWeightsTheChosenExpertsAndItsCache) {
  const auto c = tiny_mixtral();
  const auto p = predict_decode(c, round_profile(), {1, 10, 1, ""});
  EXPECT_DOUBLE_EQ(p.experts_touched, 2);  // one token: its k experts
  // Dense: per block two norms 32, q/o 2 x 256, k/v 2 x 128, gate 64; the final norm 16 and the
  // head 64 x 16 (the untied embedding table: one row, not counted). Experts: 2 layers x 2 chosen
  // x gate/up/down 3 x 8 x 16.
  const double dense = 2 * (32 + 768 + 64) + 16 + 1024;
  const double experts = 2 * 2 * 384;
  EXPECT_DOUBLE_EQ(p.weight_bytes_read, 4 * (dense + experts));
  // Cache: 10 positions x 2 layers x keys and values 2 x 8, float32.
  EXPECT_DOUBLE_EQ(p.cache_bytes, 10 * 2 * 16 * 4.0);
  // 2 FLOPs per multiply-add of the active matrices and norms as the parameters count them, and
  // attention 4 x 10 x 16 per block.
  EXPECT_DOUBLE_EQ(p.flops, 2 * (dense + experts) + 2 * 4 * 10 * 16);
  EXPECT_DOUBLE_EQ(p.memory_s, (p.weight_bytes_read + p.cache_bytes) / 1e12);
  EXPECT_DOUBLE_EQ(p.compute_s, p.flops / 1e15);
  EXPECT_TRUE(p.memory_bound());
  EXPECT_DOUBLE_EQ(p.tokens_per_s, 1 / p.memory_s);
  EXPECT_TRUE(p.fits);
}

TEST(PlanDecode, BatchesShareTheExpertsTheyTouch) {
  const auto c = tiny_mixtral();
  const auto one = predict_decode(c, round_profile(), {1, 10, 1, ""});
  const auto eight = predict_decode(c, round_profile(), {8, 10, 1, ""});
  // 4 (1 - (1/2)^8) experts of 4 in each layer.
  EXPECT_DOUBLE_EQ(eight.experts_touched, 4 * (1 - std::pow(0.5, 8)));
  EXPECT_LT(eight.weight_bytes_read, 8 * one.weight_bytes_read);
  EXPECT_DOUBLE_EQ(eight.cache_bytes, 8 * one.cache_bytes);
  EXPECT_GT(eight.tokens_per_s, 4 * one.tokens_per_s);
  // Two devices halve each one's reads and memory; bfloat16 halves the bytes.
  const auto two = predict_decode(c, round_profile(), {8, 10, 2, ""});
  EXPECT_DOUBLE_EQ(two.memory_s, eight.memory_s / 2);
  const auto half = predict_decode(c, round_profile(), {8, 10, 1, "bfloat16"});
  EXPECT_DOUBLE_EQ(half.weight_bytes_read, eight.weight_bytes_read / 2);
  // The fixed cost of the operations comes on top of the roofline.
  auto slow = round_profile();
  slow.device.op_overhead_s = 1e-6;
  const auto with_overhead = predict_decode(c, slow, {8, 10, 1, ""});
  EXPECT_GT(with_overhead.overhead_s, 0);
  EXPECT_DOUBLE_EQ(with_overhead.step_s, eight.step_s + with_overhead.overhead_s);
}

TEST(PlanDecode, MlaCachesTheLatentAndExpandsItEachStep) {
  auto c = tiny_mixtral();
  c.model.attention = protocol::AttentionKind::Mla;  // q_proj whole, latent 8, heads 4 + 2 + 4
  c.model.q_lora_rank = 0;
  c.model.kv_lora_rank = 8;
  c.model.qk_nope_dim = 4;
  c.model.qk_rope_dim = 2;
  c.model.v_head_dim = 4;
  const auto p = predict_decode(c, round_profile(), {1, 10, 1, ""});
  // The latent and the rotary key: 10 positions x 2 layers x (8 + 2), float32.
  EXPECT_DOUBLE_EQ(p.cache_bytes, 10 * 2 * 10 * 4.0);
  // The engine's cheaper path per block: expanding each cached latent (4 heads, rank 8, nope 4,
  // v 4: 2 L 4 (6 + 4) + 2 L 8 x 4 (4 + 4)) or attending in the latent space (2 x 4 (8 (4 + 4) +
  // L (2 x 8 + 2))); one cached position expands, ten attend in the latent space.
  EXPECT_DOUBLE_EQ(decode_attention_flops_per_token(c, 1), 80 + 512);
  EXPECT_DOUBLE_EQ(decode_attention_flops_per_token(c, 10), 8 * (64 + 180));
  EXPECT_THROW(predict_decode(c, round_profile(), {0, 10, 1, ""}), std::invalid_argument);
  auto image = c;
  image.model.kind = protocol::ModelKind::Image;
  EXPECT_THROW(predict_decode(image, round_profile(), {1, 10, 1, ""}), std::invalid_argument);
}

}  // namespace
}  // namespace moe::plan

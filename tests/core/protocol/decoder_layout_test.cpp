// model.kind "decoder": its layer list, derived shapes and the validator's rules (docs/MODELS.md).
#include <gtest/gtest.h>

#include <stdexcept>

#include "protocol/config_validation.h"
#include "protocol/decoder_layout.h"

using namespace moe::protocol;

namespace {

RunConfig decoder() {
  RunConfig c;
  c.model.kind = ModelKind::Decoder;
  c.model.dim = 64;
  c.model.heads = 4;
  c.model.layers = 4;
  c.moe.expert_ffn = ExpertFfn::Glu;
  return c;
}

bool has_problem_at(const RunConfig& c, const std::string& pointer) {
  for (const auto& p : validate(c, {})) {
    if (p.pointer == pointer) return true;
  }
  return false;
}

}  // namespace

TEST(DecoderLayout, LayerListsParseInAnyOrderAndSeparator) {
  EXPECT_EQ(parse_layer_list(""), std::vector<int64_t>{});
  EXPECT_EQ(parse_layer_list("3, 0 1"), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(format_layer_list({0, 2}), "0, 2");
  EXPECT_THROW(parse_layer_list("0, x"), std::invalid_argument);
  EXPECT_THROW(parse_layer_list("1, 1"), std::invalid_argument);
  EXPECT_THROW(parse_layer_list("-1"), std::invalid_argument);
}

TEST(DecoderLayout, DenseLayersAreTheListedOnes) {
  auto c = decoder();
  c.model.dense_layers = "0, 2";
  EXPECT_EQ(moe_layer_mask(c), (std::vector<bool>{false, true, false, true}));
  c.model.kind = ModelKind::Lm;  // the lm keeps moe.every
  c.moe.every = 2;
  EXPECT_EQ(moe_layer_mask(c), (std::vector<bool>{true, false, true, false}));
}

TEST(DecoderLayout, HeadShapesDefaultFromTheWidth) {
  auto c = decoder();
  EXPECT_EQ(attention_head_dim(c.model), 16);
  EXPECT_EQ(attention_kv_heads(c.model), 4);
  c.model.head_dim = 24;
  c.model.kv_heads = 2;
  EXPECT_EQ(attention_head_dim(c.model), 24);
  EXPECT_EQ(attention_kv_heads(c.model), 2);
  EXPECT_EQ(dense_mlp_hidden(c), c.moe.hidden);
}

TEST(DecoderValidation, AValidDecoderHasNoProblems) {
  EXPECT_TRUE(validate(decoder(), {}).empty());
}

TEST(DecoderValidation, EachRuleNamesItsKey) {
  auto c = decoder();
  c.model.kv_heads = 3;
  EXPECT_TRUE(has_problem_at(c, "/model/kv_heads"));
  c = decoder();
  c.model.head_dim = 7;  // rotary pairs
  EXPECT_TRUE(has_problem_at(c, "/model/head_dim"));
  c = decoder();
  c.model.dense_layers = "4";
  EXPECT_TRUE(has_problem_at(c, "/model/dense_layers"));
  c = decoder();
  c.model.dense_layers = "a";
  EXPECT_TRUE(has_problem_at(c, "/model/dense_layers"));
  c = decoder();
  c.moe.every = 2;
  EXPECT_TRUE(has_problem_at(c, "/moe/every"));
  c = decoder();
  c.moe.shared_gate = true;
  EXPECT_TRUE(has_problem_at(c, "/moe/shared_gate"));
  c = decoder();
  c.model.kind = ModelKind::Lm;
  c.moe.shared_hidden = 32;
  EXPECT_TRUE(has_problem_at(c, "/moe/shared_hidden"));
  c = decoder();
  c.model.rope_theta = 0;
  EXPECT_TRUE(has_problem_at(c, "/model/rope_theta"));
}

namespace {

RunConfig deepseek() {
  auto c = decoder();
  c.model.attention = AttentionKind::Mla;
  c.model.q_lora_rank = 24;
  c.model.kv_lora_rank = 16;
  c.model.qk_rope_dim = 8;
  c.model.qk_nope_dim = 12;
  c.model.v_head_dim = 10;
  c.moe.experts = 12;
  c.moe.top_k = 3;
  c.moe.router = RouterKind::GroupLimitedTopK;
  c.moe.score_function = ScoreFunction::Sigmoid;
  c.moe.expert_groups = 4;
  c.moe.topk_groups = 2;
  c.moe.group_score = GroupScore::TopTwoSum;
  c.moe.routed_scaling = 2.5;
  return c;
}

}  // namespace

TEST(DecoderLayout, LatentAttentionWidthsComeFromItsKeys) {
  const auto c = deepseek();
  EXPECT_EQ(attention_head_dim(c.model), 20);  // nope + rope
  EXPECT_EQ(rotary_dim(c.model), 8);
  EXPECT_EQ(value_head_dim(c.model), 10);
  EXPECT_EQ(attention_kv_heads(c.model), 4);
  EXPECT_EQ(rotary_dim(decoder().model), 16);
  EXPECT_EQ(value_head_dim(decoder().model), 16);
}

TEST(DecoderValidation, DeepSeekConfigsAreValidAndEachRuleNamesItsKey) {
  EXPECT_TRUE(validate(deepseek(), {}).empty());
  auto c = deepseek();
  c.model.qk_rope_dim = 7;
  EXPECT_TRUE(has_problem_at(c, "/model/qk_rope_dim"));
  c = deepseek();
  c.model.kv_heads = 2;  // every head expands the one latent
  EXPECT_TRUE(has_problem_at(c, "/model/kv_heads"));
  c = deepseek();
  c.model.head_dim = 16;
  EXPECT_TRUE(has_problem_at(c, "/model/head_dim"));
  c = deepseek();
  c.model.kv_lora_rank = 0;
  EXPECT_TRUE(has_problem_at(c, "/model/kv_lora_rank"));
  c = deepseek();
  c.moe.expert_groups = 5;  // does not divide 12
  EXPECT_TRUE(has_problem_at(c, "/moe/expert_groups"));
  c = deepseek();
  c.moe.topk_groups = 5;
  EXPECT_TRUE(has_problem_at(c, "/moe/topk_groups"));
  c = deepseek();
  c.moe.topk_groups = 1;
  c.moe.top_k = 4;  // one group of 3 experts cannot give 4
  EXPECT_TRUE(has_problem_at(c, "/moe/top_k"));
  c = deepseek();
  c.moe.expert_groups = 12;  // one expert per group has no top two
  c.moe.topk_groups = 3;
  EXPECT_TRUE(has_problem_at(c, "/moe/group_score"));
  c = deepseek();
  c.moe.routed_scaling = 0;
  EXPECT_TRUE(has_problem_at(c, "/moe/routed_scaling"));
  c = deepseek();
  c.moe.router = RouterKind::TopKSoftmax;  // the group keys belong to the group router
  EXPECT_TRUE(has_problem_at(c, "/moe/expert_groups"));
  EXPECT_TRUE(has_problem_at(c, "/moe/score_function"));
  c = deepseek();
  c.model.kind = ModelKind::Lm;
  EXPECT_TRUE(has_problem_at(c, "/model/attention"));
}

TEST(DecoderValidation, GptOssKeysNameTheirRules) {
  auto c = decoder();
  c.model.o_bias = true;
  c.model.attention_sinks = true;
  c.model.sliding_window = 16;
  c.model.sliding_layers = "0, 2";
  c.model.rope_scaling = RopeScaling::Yarn;
  c.model.rope_factor = 32;
  c.moe.activation = Activation::Silu;
  c.moe.gate_bias = true;
  c.moe.swiglu_limit = 7.0;
  c.moe.swiglu_alpha = 1.702;
  EXPECT_TRUE(validate(c, {}).empty());
  auto bad = c;
  bad.model.sliding_layers = "4";
  EXPECT_TRUE(has_problem_at(bad, "/model/sliding_layers"));
  bad = c;
  bad.model.sliding_window = 0;  // layers that slide need a window
  EXPECT_TRUE(has_problem_at(bad, "/model/sliding_layers"));
  bad = c;
  bad.model.rope_factor = 0.5;
  EXPECT_TRUE(has_problem_at(bad, "/model/rope_factor"));
  bad = c;
  bad.moe.activation = Activation::Gelu;  // the clamped SwiGLU is silu's
  EXPECT_TRUE(has_problem_at(bad, "/moe/swiglu_limit"));
  bad = c;
  bad.moe.swiglu_limit = 0;
  EXPECT_TRUE(has_problem_at(bad, "/moe/swiglu_alpha"));
  bad = c;
  bad.model.kind = ModelKind::Lm;
  EXPECT_TRUE(has_problem_at(bad, "/model/attention_sinks"));
  EXPECT_TRUE(has_problem_at(bad, "/model/rope_scaling"));
}

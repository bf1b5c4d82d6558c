// The byte-level decoder-only transformer: names, causality, MoE placement, tied head, training.
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "model/lm_model.h"
#include "model_test_util.h"

namespace moe::test {
namespace {

std::shared_ptr<model::LmModelImpl> make_lm(const protocol::RunConfig& config) {
  auto m = std::dynamic_pointer_cast<model::LmModelImpl>(model::make_model(config));
  EXPECT_TRUE(m);
  return m;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(LmModel, ParameterNames) {
  auto config = small_config("lm");
  config.moe.every = 2;  // block 0 MoE, block 1 dense
  auto m = make_lm(config);
  const auto names = param_names(*m);
  const std::set<std::string> want = {"tok_emb.weight",
                                      "pos_emb",
                                      "blocks.0.ln1.weight",
                                      "blocks.0.ln1.bias",
                                      "blocks.0.attn.qkv.weight",
                                      "blocks.0.attn.qkv.bias",
                                      "blocks.0.attn.proj.weight",
                                      "blocks.0.attn.proj.bias",
                                      "blocks.0.ln2.weight",
                                      "blocks.0.ln2.bias",
                                      "blocks.0.moe.gates.0.wg.weight",
                                      "blocks.0.moe.experts.batched_fc1_w",
                                      "blocks.0.moe.experts.batched_fc2_w",
                                      "blocks.0.moe.experts.batched_fc1_bias",
                                      "blocks.0.moe.experts.batched_fc2_bias",
                                      "blocks.1.ln1.weight",
                                      "blocks.1.ln1.bias",
                                      "blocks.1.attn.qkv.weight",
                                      "blocks.1.attn.qkv.bias",
                                      "blocks.1.attn.proj.weight",
                                      "blocks.1.attn.proj.bias",
                                      "blocks.1.ln2.weight",
                                      "blocks.1.ln2.bias",
                                      "blocks.1.ffn.fc1.weight",
                                      "blocks.1.ffn.fc1.bias",
                                      "blocks.1.ffn.fc2.weight",
                                      "blocks.1.ffn.fc2.bias",
                                      "norm.weight",
                                      "norm.bias"};
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), want);
  EXPECT_EQ(names.size(), want.size());
  EXPECT_EQ(param_shape(*m, "tok_emb.weight"), (std::vector<int64_t>{256, 16}));
  EXPECT_EQ(param_shape(*m, "pos_emb"), (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(param_shape(*m, "blocks.0.attn.qkv.weight"), (std::vector<int64_t>{48, 16}));
  EXPECT_EQ(param_shape(*m, "blocks.0.moe.experts.batched_fc1_w"),
            (std::vector<int64_t>{4, 24, 16}));
  EXPECT_EQ(param_shape(*m, "blocks.1.ffn.fc1.weight"), (std::vector<int64_t>{24, 16}));
}

TEST(LmModel, CosineGateNamesUnderTheBlockPrefix) {
  auto config = small_config("lm");
  config.moe.gate = moe::protocol::Gate::Cosine;
  const auto names = param_names(*make_lm(config));
  for (const char* n : {"blocks.1.moe.gates.0.cosine_projector.weight",
                        "blocks.1.moe.gates.0.cosine_projector.bias",
                        "blocks.1.moe.gates.0.sim_matrix", "blocks.1.moe.gates.0.temperature"}) {
    EXPECT_TRUE(has(names, n)) << n;
  }
}

TEST(LmModel, EveryPlacesMoeLayersInBlocksDivisibleByIt) {
  auto config = small_config("lm");
  config.model.layers = 5;
  for (int64_t every : {1, 2, 3}) {
    config.moe.every = every;
    auto m = make_lm(config);
    const auto names = param_names(*m);
    int64_t moe_blocks = 0;
    for (int64_t i = 0; i < 5; ++i) {
      const auto prefix = "blocks." + std::to_string(i);
      const bool want_moe = i % every == 0;
      moe_blocks += want_moe;
      EXPECT_EQ(has(names, prefix + ".moe.gates.0.wg.weight"), want_moe) << every << " " << i;
      EXPECT_EQ(has(names, prefix + ".ffn.fc1.weight"), !want_moe) << every << " " << i;
    }
    EXPECT_EQ(static_cast<int64_t>(m->moe_layers().size()), moe_blocks);
    EXPECT_EQ(m->parameter_counts().experts, moe_blocks * expert_params(config));
    EXPECT_EQ(m->forward(make_batch(config, 2)).load.size(), static_cast<size_t>(moe_blocks));
  }
}

TEST(LmModel, UntiedHeadAddsVocabTimesDim) {
  auto config = small_config("lm");
  const int64_t tied = make_lm(config)->parameter_counts().total();
  config.model.tie_embeddings = false;
  auto untied = make_lm(config);
  EXPECT_EQ(untied->parameter_counts().total() - tied, 256 * 16);
  EXPECT_EQ(param_shape(*untied, "head.weight"), (std::vector<int64_t>{256, 16}));
  auto out = untied->forward(make_batch(config, 2));
  out.task_loss.backward();
  EXPECT_EQ(params_without_grad(*untied), std::vector<std::string>{});
}

// Routing couples tokens only through capacity: dropless (capacity_factor 0) makes it exact.
TEST(LmModel, LogitsAtAPositionIgnoreLaterTokens) {
  auto config = small_config("lm", "float64");
  config.moe.capacity_factor = 0;
  torch::manual_seed(6);
  auto m = make_lm(config);
  auto tokens = make_batch(config, 2).inputs;
  auto changed = tokens.clone();
  const int64_t t = 5;
  changed.select(1, t).add_(1).remainder_(256);
  auto a = m->logits(tokens), b = m->logits(changed);
  ASSERT_EQ(a.sizes(), (std::vector<int64_t>{2, 8, 256}));
  EXPECT_TRUE(torch::allclose(a.slice(1, 0, t), b.slice(1, 0, t), 1e-12, 1e-12));
  EXPECT_FALSE(torch::allclose(a.slice(1, t), b.slice(1, t), 1e-6, 1e-6));
}

TEST(LmModel, ShorterSequencesThanSeqLenWork) {
  auto config = small_config("lm");
  auto m = make_lm(config);
  auto batch = make_batch(config, 2);
  batch.inputs = batch.inputs.slice(1, 0, 5).contiguous();
  batch.targets = batch.targets.slice(1, 0, 5).contiguous();
  EXPECT_EQ(m->forward(batch).tokens, 10);
}

TEST(LmModel, RejectsBadShapes) {
  auto config = small_config("lm");
  auto m = make_lm(config);
  auto seq = torch::randint(0, 256, {2, 9}, torch::kLong);
  EXPECT_THROW(m->forward({seq, seq}), std::invalid_argument);  // longer than seq_len
  auto ok = seq.slice(1, 0, 8);
  EXPECT_THROW(m->forward({ok, ok.slice(1, 0, 7)}), std::invalid_argument);
  EXPECT_THROW(m->forward({ok.to(at::kFloat), ok}), std::invalid_argument);
}

TEST(LmModel, LossIsTheMeanCrossEntropyOfTheLogits) {
  auto config = small_config("lm", "bfloat16");
  auto m = make_lm(config);
  auto batch = make_batch(config, 2);
  auto out = m->forward(batch);
  auto z = m->logits(batch.inputs).to(at::kFloat).reshape({-1, 256});
  auto want = -z.log_softmax(1).gather(1, batch.targets.reshape({-1, 1})).mean();
  EXPECT_NEAR(out.task_loss.item<double>(), want.item<double>(), 1e-5);
}

TEST(LmModel, SgdOnOneBatchLowersTheLoss) {
  auto config = small_config("lm");
  torch::manual_seed(8);
  auto m = make_lm(config);
  auto [first, last] = sgd_on_one_batch(*m, make_batch(config, 4), 0.5, 20);
  EXPECT_LT(last, first - 0.3) << first << " -> " << last;
}

}  // namespace
}  // namespace moe::test

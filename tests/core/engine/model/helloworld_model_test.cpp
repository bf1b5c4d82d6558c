// The helloworld model: Tutel's example loss over one MoE layer, with Tutel's parameter names.
#include <gtest/gtest.h>

#include <set>

#include "model/model.h"
#include "model_test_util.h"

namespace moe::test {
namespace {

TEST(HelloworldModel, ParameterNamesMatchTutelsStateDict) {
  auto config = small_config("helloworld");
  auto m = model::make_model(config);
  const auto names = param_names(*m);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()),
            (std::set<std::string>{
                "_moe_layer.gates.0.wg.weight", "_moe_layer.experts.batched_fc1_w",
                "_moe_layer.experts.batched_fc2_w", "_moe_layer.experts.batched_fc1_bias",
                "_moe_layer.experts.batched_fc2_bias"}));
  EXPECT_EQ(param_shape(*m, "_moe_layer.gates.0.wg.weight"), (std::vector<int64_t>{4, 16}));
  EXPECT_EQ(param_shape(*m, "_moe_layer.experts.batched_fc2_w"), (std::vector<int64_t>{4, 24, 16}));
  EXPECT_EQ(param_shape(*m, "_moe_layer.experts.batched_fc1_bias"), (std::vector<int64_t>{4, 24}));
}

TEST(HelloworldModel, LossIsNllOfLogSoftmaxOfTheSummedLayerOutput) {
  auto config = small_config("helloworld", "float64");
  torch::manual_seed(4);
  auto m = model::make_model(config);
  auto batch = make_batch(config, 3);
  batch.inputs = batch.inputs.to(at::kDouble);
  batch.targets = torch::tensor({0, 5, 2}, torch::kLong);  // any class, not only Tutel's 0
  auto out = m->forward(batch);

  auto layer_out = m->moe_layers().at(0)->forward(batch.inputs);
  auto y = layer_out.output.sum(-1);  // [B, T]
  double want = 0;
  for (int64_t b = 0; b < 3; ++b) {
    const int64_t t = batch.targets[b].item<int64_t>();
    want -= (y[b][t] - y[b].exp().sum().log()).item<double>();
  }
  want /= 3;
  EXPECT_NEAR(out.task_loss.item<double>(), want, 1e-12);
  EXPECT_NEAR(out.aux_loss.item<double>(), layer_out.l_aux.item<double>(), 1e-12);
  EXPECT_NEAR(out.z_loss.item<double>(), layer_out.z_loss.item<double>(), 1e-12);
  EXPECT_EQ(out.tokens, 3 * 8);
  ASSERT_EQ(out.load.size(), 1u);
  EXPECT_TRUE(out.load[0].demand.equal(layer_out.stats.demand));
}

TEST(HelloworldModel, TutelPresetShapesBuild) {
  auto config = small_config("helloworld");
  config.model.dim = 64;
  config.moe.experts = 2;
  config.moe.hidden = 32;
  config.moe.activation = moe::protocol::Activation::Relu;
  config.moe.fp32_gate = false;
  auto m = model::make_model(config);
  EXPECT_EQ(m->parameter_counts().experts, 2 * (2 * 32 * 64 + 32 + 64));
  EXPECT_EQ(m->parameter_counts().dense, 2 * 64);  // the gate
}

TEST(HelloworldModel, RejectsInputsOfTheWrongWidth) {
  auto config = small_config("helloworld");
  auto m = model::make_model(config);
  data::Batch batch{torch::randn({2, 8, 15}), torch::zeros({2}, torch::kLong)};
  EXPECT_THROW(m->forward(batch), std::invalid_argument);
  batch = {torch::randn({2, 8, 16}), torch::zeros({3}, torch::kLong)};
  EXPECT_THROW(m->forward(batch), std::invalid_argument);
}

}  // namespace
}  // namespace moe::test

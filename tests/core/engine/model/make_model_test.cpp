// make_model and the ModelImpl interface, for every model kind and dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <tuple>

#include "model/model.h"
#include "model_test_util.h"

namespace moe::test {
namespace {

using model::make_model;

class EveryModel : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(EveryModel, ForwardGivesFiniteLossesOfTheLossDtype) {
  const auto& [kind, dtype] = GetParam();
  auto config = small_config(kind, dtype);
  torch::manual_seed(1);
  auto m = make_model(config);
  const auto want = model::torch_dtype(config.train.dtype);
  for (const auto& p : m->parameters()) ASSERT_EQ(p.scalar_type(), want);
  EXPECT_EQ(m->dtype(), want);

  auto batch = make_batch(config, 3);
  if (kind == "helloworld") batch.inputs = batch.inputs.to(want);
  auto out = m->forward(batch);
  const auto loss_type = dtype == "float64" ? at::kDouble : at::kFloat;
  for (const auto* t : {&out.task_loss, &out.aux_loss, &out.z_loss}) {
    ASSERT_TRUE(t->defined());
    EXPECT_EQ(t->dim(), 0);
    EXPECT_EQ(t->scalar_type(), loss_type);
    EXPECT_TRUE(std::isfinite(t->item<double>()));
  }
  // Random targets over >= 10 classes: the loss is near ln(classes), far from 0.
  EXPECT_GT(out.task_loss.item<double>(), 0.1);
  EXPECT_EQ(out.load.size(), m->moe_layers().size());
  ASSERT_FALSE(out.load.empty());
  EXPECT_EQ(out.load[0].host().counts.size(), 4u);
  if (kind == "image") {
    EXPECT_EQ(out.tokens, 3 * 7 * 7);
    EXPECT_GE(out.correct.item<int64_t>(), 0);
    EXPECT_LE(out.correct.item<int64_t>(), 3);
  } else {
    EXPECT_EQ(out.tokens, 3 * config.model.seq_len);
    EXPECT_FALSE(out.correct.defined());
  }
}

TEST_P(EveryModel, BackwardReachesEveryParameter) {
  const auto& [kind, dtype] = GetParam();
  auto config = small_config(kind, dtype);
  torch::manual_seed(2);
  auto m = make_model(config);
  auto out = m->forward(make_batch(config, 4));
  (out.task_loss + out.aux_loss + out.z_loss).backward();
  EXPECT_EQ(params_without_grad(*m), std::vector<std::string>{});
}

TEST_P(EveryModel, ParameterCountsSplitExpertsFromTheRest) {
  const auto& [kind, dtype] = GetParam();
  auto config = small_config(kind, dtype);
  auto m = make_model(config);
  int64_t total = 0;
  for (const auto& p : m->parameters()) total += p.numel();
  const auto counts = m->parameter_counts();
  EXPECT_EQ(counts.total(), total);
  // helloworld has one MoE layer; lm and image have 2 layers with every = 1.
  const int64_t layers = kind == "helloworld" ? 1 : 2;
  EXPECT_EQ(counts.experts, layers * expert_params(config));
  EXPECT_GT(counts.dense, 0);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDtypes, EveryModel,
                         ::testing::Combine(::testing::Values("helloworld", "lm", "image"),
                                            ::testing::Values("float32", "float64", "bfloat16")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

TEST(MakeModel, Float16TrainsInFloat32) {
  auto m = make_model(small_config("lm", "float16"));
  EXPECT_EQ(m->dtype(), at::kFloat);
}

TEST(MakeModel, ExpertCountsWithoutBiases) {
  auto config = small_config("image");
  config.moe.fc1_bias = false;
  config.moe.fc2_bias = false;
  const int64_t e = 4, h = 24, d = 16;
  EXPECT_EQ(make_model(config)->parameter_counts().experts, 2 * e * 2 * h * d);
}

TEST(MakeModel, SameSeedSameWeights) {
  auto config = small_config("lm");
  torch::manual_seed(5);
  auto a = make_model(config);
  torch::manual_seed(5);
  auto b = make_model(config);
  auto pa = a->parameters(), pb = b->parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(pa[i].equal(pb[i])) << i;
}

}  // namespace
}  // namespace moe::test

// The image classifier: names, shapes per data kind, accuracy counts and training.
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "model/image_model.h"
#include "model_test_util.h"

namespace moe::test {
namespace {

std::shared_ptr<model::ImageModelImpl> make_image(const protocol::RunConfig& config) {
  auto m = std::dynamic_pointer_cast<model::ImageModelImpl>(model::make_model(config));
  EXPECT_TRUE(m);
  return m;
}

TEST(ImageModel, ParameterNames) {
  auto config = small_config("image");
  config.moe.every = 2;
  auto m = make_image(config);
  const auto names = param_names(*m);
  const std::set<std::string> want = {"conv.weight",
                                      "conv.bias",
                                      "patch.weight",
                                      "patch.bias",
                                      "pos_emb",
                                      "blocks.0.norm.weight",
                                      "blocks.0.norm.bias",
                                      "blocks.0.moe.gates.0.wg.weight",
                                      "blocks.0.moe.experts.batched_fc1_w",
                                      "blocks.0.moe.experts.batched_fc2_w",
                                      "blocks.0.moe.experts.batched_fc1_bias",
                                      "blocks.0.moe.experts.batched_fc2_bias",
                                      "blocks.1.norm.weight",
                                      "blocks.1.norm.bias",
                                      "blocks.1.ffn.fc1.weight",
                                      "blocks.1.ffn.fc1.bias",
                                      "blocks.1.ffn.fc2.weight",
                                      "blocks.1.ffn.fc2.bias",
                                      "norm.weight",
                                      "norm.bias",
                                      "head.weight",
                                      "head.bias"};
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), want);
  EXPECT_EQ(param_shape(*m, "pos_emb"), (std::vector<int64_t>{49, 16}));
  EXPECT_EQ(param_shape(*m, "head.weight"), (std::vector<int64_t>{10, 49 * 16}));
  EXPECT_EQ(m->moe_layers().size(), 1u);
}

TEST(ImageModel, Cifar10TakesThreeChannelsOf32x32) {
  auto config = small_config("image");
  config.data.kind = moe::protocol::DataKind::Cifar10;
  auto m = make_image(config);
  EXPECT_EQ(m->grid(), 8);
  auto batch = make_batch(config, 2);
  EXPECT_EQ(batch.inputs.sizes(), (std::vector<int64_t>{2, 3, 32, 32}));
  EXPECT_EQ(m->forward(batch).tokens, 2 * 64);
}

TEST(ImageModel, RejectsImagesOfAnotherShape) {
  auto config = small_config("image");
  auto m = make_image(config);
  auto targets = torch::zeros({2}, torch::kLong);
  for (auto shape : {std::vector<int64_t>{2, 3, 32, 32},
                     {2, 3, 28, 28},
                     {2, 1, 32, 32},
                     {2, 28, 28},
                     {2, 784}}) {
    EXPECT_THROW(m->forward({torch::randn(shape), targets}), std::invalid_argument)
        << c10::str(shape);
  }
  EXPECT_THROW(m->forward({torch::randn({2, 1, 28, 28}), torch::zeros({3}, torch::kLong)}),
               std::invalid_argument);
  config.data.kind = moe::protocol::DataKind::Cifar10;
  EXPECT_THROW(make_image(config)->forward({torch::randn({2, 1, 28, 28}), targets}),
               std::invalid_argument);
}

TEST(ImageModel, CorrectCountsTheArgmaxHits) {
  auto config = small_config("image");
  auto m = make_image(config);
  auto batch = make_batch(config, 16);
  m->eval();
  auto out = m->forward(batch);
  auto want = m->logits(batch.inputs).argmax(1).eq(batch.targets).sum().item<int64_t>();
  EXPECT_EQ(out.correct.item<int64_t>(), want);
  EXPECT_GE(out.correct.item<int64_t>(), 0);
  EXPECT_LE(out.correct.item<int64_t>(), 16);
  // Targets set to the model's own predictions: every sample counts.
  batch.targets = m->logits(batch.inputs).argmax(1);
  EXPECT_EQ(m->forward(batch).correct.item<int64_t>(), 16);
}

TEST(ImageModel, SgdOnOneBatchLowersTheLoss) {
  auto config = small_config("image");
  torch::manual_seed(9);
  auto m = make_image(config);
  auto [first, last] = sgd_on_one_batch(*m, make_batch(config, 16), 0.05, 20);
  EXPECT_LT(last, first * 0.5) << first << " -> " << last;
}

}  // namespace
}  // namespace moe::test

// What every kind of experts promises the token dispatchers (experts.h): forward_saving and
// backward by hand give what autograd gives through forward_with, and make_experts registers the
// weights under Tutel's names in the order the optimizer and checkpoints have always seen.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "layer/experts.h"

namespace moe::test {
namespace {

protocol::MoeConfig ffn_config(bool fc1_bias, bool fc2_bias) {
  protocol::MoeConfig c;
  c.experts = 3;
  c.hidden = 8;
  c.activation = moe::protocol::Activation::Silu;
  c.fc1_bias = fc1_bias;
  c.fc2_bias = fc2_bias;
  return c;
}

TEST(ExpertsKind, HandWrittenBackwardMatchesAutograd) {
  for (const bool biases : {true, false}) {
    torch::manual_seed(5);
    layer::Experts experts = layer::make_experts(6, ffn_config(biases, biases));
    experts->to(at::kDouble);
    const auto d = torch::randn({3, 4, 6}, at::kDouble).requires_grad_(true);
    const auto grad_y = torch::randn({3, 4, 6}, at::kDouble);
    const auto w = experts->weights();

    const auto y = experts->forward_with(d, w);
    y.backward(grad_y);

    layer::ExpertsSaved saved;
    const auto y_hand = experts->forward_saving(d.detach(), w, saved);
    EXPECT_TRUE(torch::allclose(y_hand, y.detach(), 1e-12, 1e-12));
    const auto g = experts->backward(grad_y, saved, w, true, true);
    ASSERT_EQ(g.size(), w.size() + 1);
    EXPECT_TRUE(torch::allclose(g[0], d.grad(), 1e-12, 1e-12));
    for (size_t i = 0; i < w.size(); ++i) {
      ASSERT_EQ(g[i + 1].defined(), w[i].defined()) << "weight " << i;
      if (w[i].defined()) {
        EXPECT_TRUE(torch::allclose(g[i + 1], w[i].grad(), 1e-12, 1e-12));
      }
    }
  }
}

TEST(ExpertsKind, FfnWeightsKeepTutelsNamesAndOrder) {
  layer::Experts experts = layer::make_experts(6, ffn_config(true, true));
  std::vector<std::string> names;
  for (const auto& p : experts->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names, (std::vector<std::string>{"batched_fc1_w", "batched_fc2_w", "batched_fc1_bias",
                                             "batched_fc2_bias"}));
  EXPECT_EQ(experts->roles().back(), layer::WeightRole::output_bias);
  EXPECT_EQ(experts->experts(), 3);
  layer::Experts no_bias = layer::make_experts(6, ffn_config(false, false));
  EXPECT_EQ(no_bias->parameters().size(), 2u);
  EXPECT_FALSE(no_bias->weights()[1].defined());
}

}  // namespace
}  // namespace moe::test

// The worked example of docs/ROUTING.md ("Worked example"), computed by hand.
#include <gtest/gtest.h>

#include "layer/routing_plan.h"
#include "layer_fixtures.h"

namespace moe::test {
namespace {

at::Tensor example_logits() {
  return torch::tensor({2.0, .5,  .1,  -1.0, 1.5, 1.4, 0.0, 0.0, .2,  2.2, .1,  0.0,
                        1.9, 0.0, 1.0, .3,   0.0, .1,  .2,  3.0, 2.5, 0.0, 0.0, 2.4},
                       at::kDouble)
      .view({6, 4});
}

// A layer whose top gate is the identity, so the input rows are the logits.
layer::MoeLayer identity_gate_layer(int64_t k) {
  auto c = small_moe(4, k);
  c.fp32_gate = false;
  auto layer = make_layer(4, c, at::kDouble);
  torch::NoGradGuard no_grad;
  layer->named_parameters()["gates.0.wg.weight"].copy_(torch::eye(4, at::kDouble));
  return layer;
}

std::vector<int32_t> row(const at::Tensor& t, int64_t j) {
  auto r = t[j].contiguous();
  return {r.data_ptr<int32_t>(), r.data_ptr<int32_t>() + r.numel()};
}

TEST(WorkedExample, TopOneChoicesSlotsCapacityAndLoss) {
  layer::RoutingOptions options;
  options.top_k = 1;
  auto plan = layer::make_routing_plan(at::softmax(example_logits(), 1), at::Tensor(), options);
  EXPECT_EQ(row(plan.idx, 0), (std::vector<int32_t>{0, 0, 1, 0, 3, 0}));
  EXPECT_EQ(row(plan.loc, 0), (std::vector<int32_t>{0, 1, 0, 2, 0, 3}));
  EXPECT_EQ(plan.capacity, 2);
  EXPECT_TRUE(plan.demand.equal(torch::tensor({4, 1, 0, 1}, at::kLong)));
  EXPECT_TRUE(plan.kept.equal(torch::tensor({2, 1, 0, 1}, at::kLong)));

  auto layer = identity_gate_layer(1);
  auto out = layer->forward(example_logits());
  EXPECT_NEAR(out.l_aux.item<double>(), 1.372619, 1e-6);
  EXPECT_NEAR(out.stats.host().dropped_frac, 2.0 / 6.0, 1e-12);
  EXPECT_EQ(out.stats.host().dead_experts, 1);
  EXPECT_NEAR(out.stats.host().max_over_mean, 4.0 / 1.5, 1e-12);
  // Tokens 3 and 5 (slots 2 and 3 of expert 0) are dropped: zero output.
  EXPECT_EQ(out.output[3].abs().sum().item<double>(), 0.0);
  EXPECT_EQ(out.output[5].abs().sum().item<double>(), 0.0);
  EXPECT_GT(out.output[0].abs().sum().item<double>(), 0.0);
}

TEST(WorkedExample, TopTwoDropsOnlyTokenTwosSecondChoice) {
  layer::RoutingOptions options;
  options.top_k = 2;
  auto plan = layer::make_routing_plan(at::softmax(example_logits(), 1), at::Tensor(), options);
  EXPECT_EQ(plan.capacity, 4);
  EXPECT_EQ(row(plan.idx, 1)[2], 0);
  EXPECT_EQ(row(plan.loc, 1)[2], 4);
  int dropped = 0;
  for (int j = 0; j < 2; ++j) {
    for (auto slot : row(plan.loc, j)) dropped += slot >= plan.capacity;
  }
  EXPECT_EQ(dropped, 1);
}

}  // namespace
}  // namespace moe::test

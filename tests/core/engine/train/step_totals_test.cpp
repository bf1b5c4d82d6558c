// StepTotals: micro-batches of one optimizer step merged, and the load metrics (docs/ROUTING.md) of
// the sums worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "train/step_totals.h"

namespace moe::train {
namespace {

// A layer's figures as the MoE layer leaves them: expert_load derives the metrics from the sums.
layer::LayerLoad stats(std::vector<int64_t> counts, std::vector<int64_t> kept, int64_t capacity,
                       std::vector<double> importance, double router_entropy, double l_aux,
                       double z_loss) {
  std::vector<double> means = std::move(importance);
  means.insert(means.end(), {router_entropy, l_aux, z_loss});
  return layer::LayerLoad{torch::tensor(counts, at::kLong), torch::tensor(kept, at::kLong),
                          capacity, torch::tensor(means, at::kDouble)};
}

model::ModelOutput output(std::vector<layer::LayerLoad> load, int64_t tokens, double task = 0,
                          double aux = 0, double z = 0) {
  model::ModelOutput out;
  out.load = std::move(load);
  out.tokens = tokens;
  out.task_loss = torch::tensor(task, at::kFloat);
  out.aux_loss = torch::tensor(aux, at::kFloat);
  out.z_loss = torch::tensor(z, at::kDouble);
  return out;
}

// Two micro-batches of 6 tokens, top-2 over 4 experts, two MoE layers.
StepTotals two_micro_batches() {
  StepTotals t;
  t.add(output({stats({3, 0, 5, 4}, {3, 0, 4, 4}, 4, {0.1, 0.2, 0.3, 0.4}, 0.8, 1.2, 0.5),
                stats({3, 3, 3, 3}, {3, 3, 3, 3}, 4, {0.25, 0.25, 0.25, 0.25}, 1.0, 1.0, 0.0)},
               6, 2.0, 0.5, 0.25));
  t.add(output({stats({1, 0, 7, 4}, {1, 0, 5, 4}, 5, {0.3, 0.2, 0.1, 0.4}, 0.6, 1.0, 0.1),
                stats({3, 3, 3, 3}, {3, 3, 3, 3}, 4, {0.25, 0.25, 0.25, 0.25}, 0.5, 2.0, 0.2)},
               6, 3.0, 0.25, 0.75));
  return t;
}

TEST(StepTotals, LossesAreAveragedAndTokensSummed) {
  StepTotals t = two_micro_batches();
  EXPECT_EQ(t.micro_batches(), 2);
  EXPECT_EQ(t.tokens(), 12);
  const at::Tensor means = t.mean_losses();
  EXPECT_EQ(means.scalar_type(), at::kDouble);
  EXPECT_EQ(means.sizes(), at::IntArrayRef({3}));
  EXPECT_DOUBLE_EQ(means[0].item<double>(), 2.5);
  EXPECT_DOUBLE_EQ(means[1].item<double>(), 0.375);
  EXPECT_DOUBLE_EQ(means[2].item<double>(), 0.5);
  EXPECT_EQ(t.layers(), 2u);
  // What the trainer reports once it has averaged the means over the ranks.
  t.set_losses(2.5, 0.375, 0.5);
  EXPECT_DOUBLE_EQ(t.task_loss(), 2.5);
}

TEST(StepTotals, CountsAndKeptAreSummed) {
  const auto e = two_micro_batches().expert_load(17, 0);
  EXPECT_EQ(e.step, 17);
  EXPECT_EQ(e.layer, 0);
  EXPECT_EQ(e.counts, (std::vector<int64_t>{4, 0, 12, 8}));
  EXPECT_EQ(e.kept, (std::vector<int64_t>{4, 0, 9, 8}));
  EXPECT_EQ(e.capacity, 5);  // the larger of the passes' capacities
}

TEST(StepTotals, Section2MetricsOfTheSums) {
  const auto e = two_micro_batches().expert_load(17, 0);
  // d = {4, 0, 12, 8}: T = 24, mean 6, deviations -2 -6 6 2, population variance 80 / 4 = 20.
  EXPECT_NEAR(e.dropped_frac, 3.0 / 24.0, 1e-12);
  EXPECT_NEAR(e.cv, std::sqrt(20.0) / 6.0, 1e-12);
  EXPECT_NEAR(e.max_over_mean, 2.0, 1e-12);
  // H(1/6, 0, 1/2, 1/3) / ln 4
  const double h = -(std::log(1.0 / 6) / 6 + std::log(0.5) / 2 + std::log(1.0 / 3) / 3);
  EXPECT_NEAR(e.load_entropy, h / std::log(4.0), 1e-12);
  EXPECT_EQ(e.dead_experts, 1);
}

TEST(StepTotals, ImportanceRouterEntropyAndLAuxAreAveraged) {
  const auto e = two_micro_batches().expert_load(17, 0);
  ASSERT_EQ(e.importance.size(), 4u);
  const std::vector<double> want = {0.2, 0.2, 0.2, 0.4};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(e.importance[i], want[i], 1e-12) << i;
  EXPECT_NEAR(e.router_entropy, 0.7, 1e-12);
  EXPECT_NEAR(e.l_aux, 1.1, 1e-12);
  EXPECT_NEAR(e.z_loss, 0.3, 1e-12);
}

TEST(StepTotals, PerfectlyBalancedLayer) {
  const auto e = two_micro_batches().expert_load(3, 1);
  EXPECT_EQ(e.layer, 1);
  EXPECT_EQ(e.counts, (std::vector<int64_t>{6, 6, 6, 6}));
  EXPECT_NEAR(e.cv, 0.0, 1e-12);
  EXPECT_NEAR(e.max_over_mean, 1.0, 1e-12);
  EXPECT_NEAR(e.load_entropy, 1.0, 1e-12);
  EXPECT_NEAR(e.dropped_frac, 0.0, 1e-12);
  EXPECT_EQ(e.dead_experts, 0);
  EXPECT_NEAR(e.router_entropy, 0.75, 1e-12);
  EXPECT_NEAR(e.l_aux, 1.5, 1e-12);
}

TEST(StepTotals, OneMicroBatchKeepsItsFigures) {
  StepTotals t;
  t.add(output({stats({2, 2, 0, 4}, {2, 2, 0, 3}, 3, {0.5, 0.1, 0.1, 0.3}, 0.9, 1.3, 0.4)}, 4, 1.5,
               0.25, 0.125));
  EXPECT_DOUBLE_EQ(t.mean_losses()[0].item<double>(), 1.5);
  const auto e = t.expert_load(1, 0);
  EXPECT_EQ(e.counts, (std::vector<int64_t>{2, 2, 0, 4}));
  EXPECT_NEAR(e.dropped_frac, 1.0 / 8.0, 1e-12);
  EXPECT_NEAR(e.max_over_mean, 2.0, 1e-12);
  EXPECT_NEAR(e.importance[0], 0.5, 1e-12);
  EXPECT_NEAR(e.router_entropy, 0.9, 1e-12);
}

TEST(StepTotals, UnknownLayerThrows) {
  EXPECT_THROW(two_micro_batches().expert_load(1, 2), std::out_of_range);
}

}  // namespace
}  // namespace moe::train

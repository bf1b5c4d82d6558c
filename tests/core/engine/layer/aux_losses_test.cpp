// Auxiliary losses and load metrics against their docs/ROUTING.md formulas written out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "layer/aux_losses.h"
#include "layer/load_metrics.h"
#include "layer_fixtures.h"

namespace moe::test {
namespace {

TEST(AuxLoss, GshardIsOneForUniformRouting) {
  auto scores = torch::full({8, 4}, 0.25, at::kDouble);
  auto counts0 = torch::tensor({2, 2, 2, 2}, at::kLong);
  EXPECT_NEAR(layer::gshard_loss(scores, counts0, 8).item<double>(), 1.0, 1e-12);
}

TEST(AuxLoss, LoadImportanceMatchesFormula) {
  torch::manual_seed(5);
  const int64_t N = 10, E = 4, k = 2;
  const double s = 0.7;
  auto logits = torch::randn({N, E}, at::kDouble);
  auto noisy = logits + torch::randn({N, E}, at::kDouble) * (s / E);
  auto p = at::softmax(logits, 1);
  auto imp = p.sum(0);
  auto load = torch::zeros({E}, at::kDouble);
  for (int64_t n = 0; n < N; ++n) {
    auto sorted = std::get<0>(noisy[n].sort(0, true));
    const double thr = sorted[k - 1].item<double>();
    for (int64_t e = 0; e < E; ++e) {
      const double z = (p[n][e].item<double>() - thr) / (s / E);
      load[e] += 0.5 * std::erfc(-z / std::sqrt(2.0));
    }
  }
  auto cv2 = [](const at::Tensor& v) {
    return (v.var() / (v.mean().pow(2) + 1e-10)).item<double>();
  };
  EXPECT_NEAR(layer::load_importance_loss(p, noisy, s, k).item<double>(),
              (cv2(imp) + cv2(load)) / 2, 1e-10);
}

TEST(AuxLoss, ZLossIsMeanSquaredLogSumExp) {
  auto logits = torch::tensor({1.0, 2.0, 3.0, 0.0, 0.0, 0.0}, at::kDouble).view({2, 3});
  const double a = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  const double b = std::log(3.0);
  EXPECT_NEAR(layer::router_z_loss(logits).item<double>(), (a * a + b * b) / 2, 1e-12);
}

TEST(LoadMetrics, FromCounts) {
  auto s = layer::load_stats_from_counts({4, 1, 0, 1}, {2, 1, 0, 1}, 2);
  EXPECT_NEAR(s.dropped_frac, 2.0 / 6.0, 1e-12);
  const double mean = 1.5;
  const double var = ((4 - mean) * (4 - mean) + 2 * (1 - mean) * (1 - mean) + mean * mean) / 4;
  EXPECT_NEAR(s.cv, std::sqrt(var) / mean, 1e-12);
  EXPECT_NEAR(s.max_over_mean, 4.0 / 1.5, 1e-12);
  const double h = -(4.0 / 6 * std::log(4.0 / 6) + 2 * (1.0 / 6 * std::log(1.0 / 6)));
  EXPECT_NEAR(s.load_entropy, h / std::log(4.0), 1e-12);
  EXPECT_EQ(s.dead_experts, 1);
  auto uniform = layer::load_stats_from_counts({3, 3, 3}, {3, 3, 3}, 3);
  EXPECT_NEAR(uniform.load_entropy, 1.0, 1e-12);
  EXPECT_NEAR(uniform.cv, 0.0, 1e-12);
}

TEST(LoadMetrics, RouterEntropyBounds) {
  EXPECT_NEAR(layer::router_entropy(torch::full({5, 4}, 0.25)).item<double>(), 1.0, 1e-6);
  auto one_hot = torch::zeros({5, 4});
  one_hot.select(1, 2).fill_(1.0);
  EXPECT_NEAR(layer::router_entropy(one_hot).item<double>(), 0.0, 1e-6);
}

}  // namespace
}  // namespace moe::test

namespace moe::test {
namespace {

// The layer's l_aux and z_loss against the formulas on its own logits and noise.
TEST(LayerLosses, LoadImportanceZLossAndNone) {
  auto c = small_moe(6, 2);
  c.fp32_gate = false;
  c.gate_noise = 0.5;
  c.aux_loss = moe::protocol::AuxLoss::LoadImportance;
  auto layer = make_layer(10, c, at::kDouble);
  auto x = torch::randn({33, 10}, at::kDouble);
  auto logits = x.matmul(layer->named_parameters()["gates.0.wg.weight"].t());

  torch::manual_seed(99);
  auto out = layer->forward(x);
  torch::manual_seed(99);  // the layer draws its noise with randn_like on the logits
  auto noisy = logits + torch::randn_like(logits) * (0.5 / 6);
  auto want = layer::load_importance_loss(at::softmax(logits, 1), noisy, 0.5, 2);
  EXPECT_NEAR(out.l_aux.item<double>(), want.item<double>(), 1e-12);
  EXPECT_NEAR(out.z_loss.item<double>(), layer::router_z_loss(logits).item<double>(), 1e-12);
  EXPECT_GT(out.l_aux.item<double>(), 0.0);

  c.aux_loss = moe::protocol::AuxLoss::None;
  auto plain = make_layer(10, c, at::kDouble);
  EXPECT_EQ(plain->forward(x).l_aux.item<double>(), 0.0);
}

}  // namespace
}  // namespace moe::test

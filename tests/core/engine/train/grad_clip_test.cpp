// clip_grad_norm: the global L2 norm of every gradient, and scaling down to max_norm.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

#include "train/grad_clip.h"

namespace moe::train {
namespace {

struct Params {
  std::vector<at::Tensor> all;
  double norm = 0;  // worked out element by element
};

// Two gradients of known values and a parameter without one.
Params make_params() {
  Params p;
  at::Tensor a = torch::zeros({2, 3}).requires_grad_(true);
  at::Tensor b = torch::zeros({4}).requires_grad_(true);
  at::Tensor unused = torch::zeros({5}).requires_grad_(true);
  a.mutable_grad() = torch::tensor({1.0f, -2.0f, 3.0f, 0.5f, 0.0f, -1.5f}).reshape({2, 3});
  b.mutable_grad() = torch::tensor({4.0f, 0.25f, -0.75f, 2.0f});
  const double sum_sq = 1 + 4 + 9 + 0.25 + 0 + 2.25 + 16 + 0.0625 + 0.5625 + 4;
  p.all = {a, b, unused};
  p.norm = std::sqrt(sum_sq);
  return p;
}

std::vector<at::Tensor> grads(const Params& p) {
  std::vector<at::Tensor> out;
  for (const auto& t : p.all) {
    if (t.grad().defined()) out.push_back(t.grad().clone());
  }
  return out;
}

TEST(ClipGradNorm, NormIsTheRootOfAllSquares) {
  Params p = make_params();
  EXPECT_NEAR(clip_grad_norm(p.all, 0), p.norm, 1e-12);
}

TEST(ClipGradNorm, LargerNormIsScaledToMaxNorm) {
  Params p = make_params();
  const auto before = grads(p);
  const double max_norm = 2.0;
  EXPECT_NEAR(clip_grad_norm(p.all, max_norm), p.norm, 1e-12);
  const double scale = max_norm / (p.norm + 1e-6);
  const auto after = grads(p);
  double sum_sq = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(torch::allclose(after[i], before[i] * scale, 1e-6, 1e-7)) << i;
    sum_sq += after[i].pow(2).sum().item<double>();
  }
  EXPECT_NEAR(std::sqrt(sum_sq), max_norm, 1e-5);
  EXPECT_FALSE(p.all[2].grad().defined());
}

TEST(ClipGradNorm, SmallerNormIsLeftAlone) {
  Params p = make_params();
  const auto before = grads(p);
  EXPECT_NEAR(clip_grad_norm(p.all, p.norm + 0.5), p.norm, 1e-12);
  const auto after = grads(p);
  for (size_t i = 0; i < after.size(); ++i) EXPECT_TRUE(torch::equal(after[i], before[i])) << i;
}

TEST(ClipGradNorm, ZeroMaxNormOnlyMeasures) {
  Params p = make_params();
  const auto before = grads(p);
  clip_grad_norm(p.all, 0);
  const auto after = grads(p);
  for (size_t i = 0; i < after.size(); ++i) EXPECT_TRUE(torch::equal(after[i], before[i])) << i;
}

TEST(ClipGradNorm, NanGradientGivesNonFiniteNormAndNoScaling) {
  Params p = make_params();
  p.all[0].mutable_grad()[0][1] = std::numeric_limits<float>::quiet_NaN();
  const auto before = grads(p);
  EXPECT_FALSE(std::isfinite(clip_grad_norm(p.all, 1.0)));
  const auto after = grads(p);
  EXPECT_TRUE(torch::equal(after[1], before[1]));
  EXPECT_EQ(after[0][0][0].item<float>(), 1.0f);
}

TEST(ClipGradNorm, InfiniteGradientGivesInfiniteNorm) {
  Params p = make_params();
  p.all[1].mutable_grad()[2] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isinf(clip_grad_norm(p.all, 1.0)));
  EXPECT_EQ(p.all[1].grad()[0].item<float>(), 4.0f);
}

TEST(ClipGradNorm, NoGradientsGiveZero) {
  at::Tensor a = torch::ones({3}).requires_grad_(true);
  EXPECT_EQ(clip_grad_norm({a}, 1.0), 0.0);
  EXPECT_EQ(clip_grad_norm({}, 1.0), 0.0);
}

TEST(ClipGradNorm, Float32GradientsAccumulateInDouble) {
  // 10^6 gradients of 1e-3: a float32 sum of squares drifts, float64 gives 1 to 1e-9.
  at::Tensor a = torch::zeros({1000000}).requires_grad_(true);
  a.mutable_grad() = torch::full({1000000}, 1e-3f);
  const double expected = std::sqrt(1e6 * static_cast<double>(1e-3f) * static_cast<double>(1e-3f));
  EXPECT_NEAR(clip_grad_norm({a}, 0), expected, 1e-9);
}

}  // namespace
}  // namespace moe::train

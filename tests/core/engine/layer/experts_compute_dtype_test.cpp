// The experts' compute dtype (what train.amp on CUDA uses): the GEMMs run in bfloat16 on a cast of
// the float32 parameters, and the gradients reach the parameters in float32.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "layer/ffn_experts.h"

namespace moe::test {
namespace {

TEST(ExpertsComputeDtype, BFloat16GemmsOnFloat32Parameters) {
  torch::manual_seed(3);
  layer::FfnExperts experts(4, 16, 32, protocol::Activation::Gelu, true, true);
  const auto d = torch::randn({4, 5, 16});
  const auto want = experts->forward(d);

  experts->set_compute_dtype(at::kBFloat16);
  const auto weights = experts->weights();
  for (const auto& w : weights) EXPECT_EQ(w.scalar_type(), at::kBFloat16);
  const auto got = experts->forward(d.to(at::kBFloat16));
  EXPECT_EQ(got.scalar_type(), at::kBFloat16);
  EXPECT_TRUE(torch::allclose(got.to(at::kFloat), want, 0.05, 0.05));

  got.to(at::kFloat).sum().backward();
  for (const auto& p : experts->parameters()) {
    ASSERT_TRUE(p.grad().defined());
    EXPECT_EQ(p.grad().scalar_type(), at::kFloat);
    EXPECT_GT(p.grad().abs().sum().item<double>(), 0.0);
  }

  experts->set_compute_dtype(c10::nullopt);
  EXPECT_EQ(experts->weights()[0].scalar_type(), at::kFloat);
  EXPECT_TRUE(experts->forward(d).equal(want));
}

}  // namespace
}  // namespace moe::test

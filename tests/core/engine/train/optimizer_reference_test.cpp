// SGD and AdamW against torch::optim of LibTorch on the same parameters and gradients. Weight
// decay applies to tensors with dim >= 2 only, so the reference decays the matrix and not the bias.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "train/optimizer.h"

namespace moe::train {
namespace {

constexpr int kSteps = 6;

// The gradient of step `step` for a tensor of `shape`: the same numbers for both optimizers.
at::Tensor gradient(int step, at::IntArrayRef shape, int salt) {
  torch::manual_seed(1000 * step + salt);
  return torch::randn(shape, torch::kDouble);
}

// A learning rate that changes each step, as the schedule makes it.
double lr_at(int step) {
  return 0.05 / (1.0 + 0.3 * step);
}

struct Pair {
  at::Tensor ours, ref;
};

Pair make_pair(at::IntArrayRef shape, int seed) {
  torch::manual_seed(seed);
  at::Tensor init = torch::randn(shape, torch::kDouble);
  return {init.clone().requires_grad_(true), init.clone().requires_grad_(true)};
}

void set_grads(std::vector<Pair>& params, int step) {
  for (size_t i = 0; i < params.size(); ++i) {
    at::Tensor g = gradient(step, params[i].ours.sizes(), static_cast<int>(i));
    params[i].ours.mutable_grad() = g.clone();
    params[i].ref.mutable_grad() = g.clone();
  }
}

void expect_close(const at::Tensor& ours, const at::Tensor& ref, const char* what, int step) {
  EXPECT_TRUE(torch::allclose(ours, ref, /*rtol=*/1e-12, /*atol=*/1e-14))
      << what << " after step " << step << ": max diff " << (ours - ref).abs().max().item<double>();
}

TEST(OptimizerReference, AdamWMatchesTorchAdamW) {
  constexpr double kWeightDecay = 0.1;
  std::vector<Pair> params = {make_pair({3, 4}, 1), make_pair({4}, 2)};
  protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::AdamW;
  config.weight_decay = kWeightDecay;
  auto ours = make_optimizer(config, {{"w", params[0].ours}, {"b", params[1].ours}});
  using torch::optim::AdamW;
  using torch::optim::AdamWOptions;
  AdamW ref_w({params[0].ref}, AdamWOptions(1).weight_decay(kWeightDecay));
  AdamW ref_b({params[1].ref}, AdamWOptions(1).weight_decay(0));  // biases are not decayed
  for (int step = 1; step <= kSteps; ++step) {
    set_grads(params, step);
    for (AdamW* opt : {&ref_w, &ref_b}) {
      static_cast<AdamWOptions&>(opt->param_groups()[0].options()).lr(lr_at(step));
      opt->step();
    }
    ours->step(lr_at(step));
    expect_close(params[0].ours, params[0].ref, "matrix", step);
    expect_close(params[1].ours, params[1].ref, "bias", step);
  }
  EXPECT_EQ(ours->steps_taken(), kSteps);
}

TEST(OptimizerReference, AdamWWithoutWeightDecayMatchesOnEveryShape) {
  std::vector<Pair> params = {make_pair({2, 3, 4}, 3), make_pair({5}, 4), make_pair({}, 5)};
  protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::AdamW;
  auto ours =
      make_optimizer(config, {{"e", params[0].ours}, {"b", params[1].ours}, {"s", params[2].ours}});
  torch::optim::AdamW ref({params[0].ref, params[1].ref, params[2].ref},
                          torch::optim::AdamWOptions(0.01).weight_decay(0));
  for (int step = 1; step <= kSteps; ++step) {
    set_grads(params, step);
    ref.step();
    ours->step(0.01);
    for (const Pair& p : params) expect_close(p.ours, p.ref, "param", step);
  }
}

// AdamW's fused kernel reads raw memory: a parameter in a transposed layout, its gradient in the
// row-major one, must still be updated element for element, in place.
TEST(OptimizerReference, AdamWUpdatesAStridedParameterInPlace) {
  constexpr double kWeightDecay = 0.1;
  torch::manual_seed(12);
  const at::Tensor init = torch::randn({5, 3}, torch::kDouble).t();  // [3, 5], not contiguous
  Pair p{init.clone().requires_grad_(true), init.contiguous().requires_grad_(true)};
  ASSERT_FALSE(p.ours.is_contiguous());
  const void* storage = p.ours.data_ptr();
  protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::AdamW;
  config.weight_decay = kWeightDecay;
  auto ours = make_optimizer(config, {{"w", p.ours}});
  torch::optim::AdamW ref({p.ref}, torch::optim::AdamWOptions(0.01).weight_decay(kWeightDecay));
  for (int step = 1; step <= kSteps; ++step) {
    const at::Tensor g = gradient(step, {3, 5}, 0);
    p.ours.mutable_grad() = g.clone();
    p.ref.mutable_grad() = g.clone();
    ref.step();
    ours->step(0.01);
    expect_close(p.ours, p.ref, "strided param", step);
  }
  EXPECT_EQ(p.ours.data_ptr(), storage);
  EXPECT_FALSE(p.ours.is_contiguous());
}

TEST(OptimizerReference, SgdWithMomentumAndWeightDecayMatchesTorchSgd) {
  constexpr double kMomentum = 0.9, kWeightDecay = 0.05;
  std::vector<Pair> params = {make_pair({3, 4}, 6), make_pair({4}, 7)};
  protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::Sgd;
  config.momentum = kMomentum;
  config.weight_decay = kWeightDecay;
  auto ours = make_optimizer(config, {{"w", params[0].ours}, {"b", params[1].ours}});
  using torch::optim::SGD;
  using torch::optim::SGDOptions;
  SGD ref_w({params[0].ref}, SGDOptions(1).momentum(kMomentum).weight_decay(kWeightDecay));
  SGD ref_b({params[1].ref}, SGDOptions(1).momentum(kMomentum).weight_decay(0));
  for (int step = 1; step <= kSteps; ++step) {
    set_grads(params, step);
    for (SGD* opt : {&ref_w, &ref_b}) {
      static_cast<SGDOptions&>(opt->param_groups()[0].options()).lr(lr_at(step));
      opt->step();
    }
    ours->step(lr_at(step));
    expect_close(params[0].ours, params[0].ref, "matrix", step);
    expect_close(params[1].ours, params[1].ref, "bias", step);
  }
}

TEST(OptimizerReference, PlainSgdIsGradientDescent) {
  std::vector<Pair> params = {make_pair({2, 2}, 8)};
  const at::Tensor before = params[0].ours.detach().clone();
  protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::Sgd;
  auto ours = make_optimizer(config, {{"w", params[0].ours}});
  set_grads(params, 1);
  ours->step(0.5);
  expect_close(params[0].ours, before - 0.5 * gradient(1, {2, 2}, 0), "param", 1);
}

TEST(OptimizerReference, ParameterWithoutGradientIsLeftAlone) {
  std::vector<Pair> params = {make_pair({2, 2}, 9), make_pair({3}, 10)};
  const at::Tensor before = params[1].ours.detach().clone();
  protocol::TrainConfig config;
  config.weight_decay = 0.5;
  auto ours = make_optimizer(config, {{"w", params[0].ours}, {"unused", params[1].ours}});
  params[0].ours.mutable_grad() = torch::ones({2, 2}, torch::kDouble);
  ours->step(0.1);
  EXPECT_TRUE(torch::equal(params[1].ours, before));
  EXPECT_FALSE(torch::equal(params[0].ours, params[0].ref));
}

TEST(OptimizerReference, ZeroGradClearsGradients) {
  std::vector<Pair> params = {make_pair({2}, 11)};
  protocol::TrainConfig config;
  auto ours = make_optimizer(config, {{"w", params[0].ours}});
  set_grads(params, 1);
  ours->zero_grad();
  EXPECT_FALSE(params[0].ours.grad().defined());
}

}  // namespace
}  // namespace moe::train

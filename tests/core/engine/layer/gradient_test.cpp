// Finite-difference gradient checks in float64: dispatch, combine and the whole layer.
#include <gtest/gtest.h>

#include <functional>

#include "layer/dispatch_function.h"
#include "layer_fixtures.h"

namespace moe::test {
namespace {

// Central differences of the scalar f() with respect to every element of t, against autograd.
void expect_gradient(const std::function<at::Tensor()>& f, at::Tensor t, double tol = 1e-6) {
  auto analytic = torch::autograd::grad({f()}, {t}, {}, false, true)[0];
  if (!analytic.defined()) analytic = at::zeros_like(t);
  torch::NoGradGuard no_grad;
  auto flat = t.view(-1);
  const double h = 1e-6;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    const double v = flat[i].item<double>();
    flat[i] = v + h;
    const double up = f().item<double>();
    flat[i] = v - h;
    const double down = f().item<double>();
    flat[i] = v;
    const double numeric = (up - down) / (2 * h);
    EXPECT_NEAR(analytic.reshape(-1)[i].item<double>(), numeric, tol) << "element " << i;
  }
}

layer::RoutingPlan small_plan(int64_t N, int64_t E, int64_t k, double f) {
  layer::RoutingOptions options;
  options.top_k = k;
  options.capacity_factor = f;
  return layer::make_routing_plan(at::softmax(torch::randn({N, E}, at::kDouble), 1), at::Tensor(),
                                  options);
}

TEST(GradientCheck, DispatchDataAndGates) {
  torch::manual_seed(3);
  auto plan = small_plan(9, 3, 2, 0.5);  // capacity below demand: some choices dropped
  auto x = torch::randn({9, 4}, at::kDouble).set_requires_grad(true);
  auto g = torch::rand({2, 9}, at::kDouble).set_requires_grad(true);
  auto r = torch::randn({3, plan.capacity, 4}, at::kDouble);
  auto f = [&] { return (layer::dispatch_tokens(x, g, plan) * r).sum(); };
  expect_gradient(f, x);
  expect_gradient(f, g);
}

TEST(GradientCheck, CombineDataAndGates) {
  torch::manual_seed(4);
  auto plan = small_plan(9, 3, 2, 0.5);
  auto y = torch::randn({3, plan.capacity, 4}, at::kDouble).set_requires_grad(true);
  auto g = torch::rand({2, 9}, at::kDouble).set_requires_grad(true);
  auto r = torch::randn({9, 4}, at::kDouble);
  auto f = [&] { return (layer::combine_tokens(y, g, plan) * r).sum(); };
  expect_gradient(f, y);
  expect_gradient(f, g);
}

TEST(GradientCheck, WholeLayerIncludingGateAndAuxLoss) {
  for (bool postscore : {true, false}) {
    auto c = small_moe(4, 2, 5);
    c.postscore = postscore;
    c.fp32_gate = false;
    c.capacity_factor = 0.75;
    auto layer = make_layer(6, c, at::kDouble, 11);
    auto x = torch::randn({7, 6}, at::kDouble).set_requires_grad(true);
    auto r = torch::randn({7, 6}, at::kDouble);
    auto f = [&] {
      auto out = layer->forward(x);
      return (out.output * r).sum() + 0.1 * out.l_aux + 0.01 * out.z_loss;
    };
    SCOPED_TRACE(postscore ? "postscore" : "prescore");
    expect_gradient(f, x);
    for (auto& p : layer->named_parameters()) {
      SCOPED_TRACE(p.key());
      expect_gradient(f, p.value());
    }
  }
}

}  // namespace
}  // namespace moe::test

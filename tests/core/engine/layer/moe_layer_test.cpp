// The MoE layer against the naive reference over a grid of options (docs/ROUTING.md).
#include <gtest/gtest.h>

#include <tuple>

#include "layer_fixtures.h"
#include "naive_reference.h"

namespace moe::test {
namespace {

struct Tolerance {
  double out, grad;
};

Tolerance tolerance_for(at::ScalarType t) {
  if (t == at::kDouble) return {1e-10, 1e-9};
  if (t == at::kFloat) return {1e-5, 1e-4};
  return {3e-2, 0.15};  // bfloat16: 8 mantissa bits, sums rounded at every step
}

void expect_close(const at::Tensor& got, const at::Tensor& want, double tol,
                  const std::string& what) {
  auto g = got.to(at::kDouble), w = want.to(at::kDouble);
  ASSERT_EQ(g.sizes(), w.sizes()) << what;
  if (got.scalar_type() == at::kBFloat16) {
    // Rounding can flip a ReLU or a near-tie for single elements; judge bfloat16 in norm.
    const double rel = ((g - w).norm() / w.norm().clamp_min(1e-12)).item<double>();
    EXPECT_LE(rel, tol) << what << ": relative error " << rel;
    return;
  }
  const double scale = std::max(1.0, w.abs().max().item<double>());
  const double err = (g - w).abs().max().item<double>();
  EXPECT_LE(err, tol * scale) << what << ": max abs error " << err << " (scale " << scale << ")";
}

// Runs layer and reference on the same input and compares outputs, losses, counts and gradients.
void check_against_reference(layer::MoeLayer& layer, const at::Tensor& x_in) {
  const auto tol = tolerance_for(x_in.scalar_type());
  auto x = x_in.clone().set_requires_grad(true);
  auto got = layer->forward(x);
  auto x_ref = x_in.clone().set_requires_grad(true);
  auto want = naive_moe(*layer, x_ref);

  ASSERT_EQ(got.stats.capacity, want.capacity);
  EXPECT_TRUE(got.stats.demand.equal(want.demand));
  EXPECT_TRUE(got.stats.kept.equal(want.kept));
  expect_close(got.output, want.output, tol.out, "output");
  if (layer->config().aux_loss == protocol::AuxLoss::GShard)
    expect_close(got.l_aux, want.l_aux, tol.out, "l_aux");

  auto r = torch::randn_like(x_in);
  auto grads = torch::autograd::grad({(got.output * r).sum()}, {x}, {}, true);
  auto grads_ref = torch::autograd::grad({(want.output * r).sum()}, {x_ref}, {}, true);
  expect_close(grads[0], grads_ref[0], tol.grad, "grad input");
  for (auto& p : layer->named_parameters()) {
    // Gate gradients are sums with heavy cancellation: in bfloat16 two correct orders of
    // summation disagree wildly, so they are checked in float32 and float64 only.
    if (x_in.scalar_type() == at::kBFloat16 && p.key().rfind("gates.", 0) == 0) continue;
    auto g = torch::autograd::grad({(got.output * r).sum()}, {p.value()}, {}, true, true);
    auto g_ref = torch::autograd::grad({(want.output * r).sum()}, {p.value()}, {}, true, true);
    auto a = g[0].defined() ? g[0] : at::zeros_like(p.value());
    auto b = g_ref[0].defined() ? g_ref[0] : at::zeros_like(p.value());
    expect_close(a, b, tol.grad, "grad " + p.key());
  }
}

// k, capacity_factor, batch_prioritized, postscore, normalize_gate
using RoutingCase = std::tuple<int, double, bool, bool, bool>;

class RoutingGrid : public ::testing::TestWithParam<RoutingCase> {};

TEST_P(RoutingGrid, MatchesNaiveReferenceInFloat64) {
  auto [k, f, bpr, post, norm] = GetParam();
  auto c = small_moe(6, k);
  c.capacity_factor = f;
  c.batch_prioritized_routing = bpr;
  c.postscore = post;
  c.normalize_gate = norm;
  c.fp32_gate = false;
  auto layer = make_layer(10, c, at::kDouble);
  check_against_reference(layer, torch::randn({29, 10}, at::kDouble));  // 29 tokens: N % E != 0
  check_against_reference(layer, skewed_tokens(layer, 29, 10, at::kDouble));
}

INSTANTIATE_TEST_SUITE_P(Layer, RoutingGrid,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4, 6),
                                            ::testing::Values(1.0, 0.5, 0.0, -0.5, -4.0),
                                            ::testing::Bool(), ::testing::Bool(),
                                            ::testing::Bool()));

// dtype, gate, biases, activation
using VariantCase = std::tuple<at::ScalarType, std::string, bool, std::string>;

class VariantGrid : public ::testing::TestWithParam<VariantCase> {};

TEST_P(VariantGrid, MatchesNaiveReference) {
  auto [dtype, gate, biases, act] = GetParam();
  for (int k : {1, 2, 8}) {
    auto c = small_moe(8, k);
    c.gate = protocol::enum_from_name<protocol::Gate>(gate).value();
    c.fc1_bias = c.fc2_bias = biases;
    c.activation = protocol::enum_from_name<protocol::Activation>(act).value();
    c.fp32_gate = dtype != at::kDouble;
    SCOPED_TRACE("k=" + std::to_string(k));
    auto layer = make_layer(16, c, dtype);
    check_against_reference(layer, torch::randn({45, 16}).to(dtype));
    check_against_reference(layer, skewed_tokens(layer, 45, 16, dtype));
  }
}

INSTANTIATE_TEST_SUITE_P(Layer, VariantGrid,
                         ::testing::Combine(::testing::Values(at::kDouble, at::kFloat,
                                                              at::kBFloat16),
                                            ::testing::Values("top", "cosine"), ::testing::Bool(),
                                            ::testing::Values("gelu", "relu", "silu")));

TEST(MoeLayer, SkewedInputDropsMostChoices) {
  auto c = small_moe(8, 1);
  auto layer = make_layer(16, c, at::kFloat);
  auto out = layer->forward(skewed_tokens(layer, 64, 16, at::kFloat));
  EXPECT_GT(out.stats.host().dropped_frac, 0.5);
  EXPECT_LT(out.stats.host().load_entropy, 0.5);
}

TEST(MoeLayer, KeepsInputShapeAndRejectsWrongWidth) {
  auto layer = make_layer(8, small_moe(4, 2), at::kFloat);
  auto out = layer->forward(torch::randn({3, 5, 8}));
  EXPECT_EQ(out.output.sizes(), (std::vector<int64_t>{3, 5, 8}));
  EXPECT_THROW(layer->forward(torch::randn({3, 6})), c10::Error);
}

TEST(MoeLayer, ParameterNamesFollowTutel) {
  auto c = small_moe(4, 2);
  c.gate = moe::protocol::Gate::Cosine;
  auto layer = make_layer(8, c, at::kFloat);
  std::vector<std::string> names;
  for (auto& p : layer->named_parameters()) names.push_back(p.key());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "experts.batched_fc1_bias", "experts.batched_fc1_w", "experts.batched_fc2_bias",
                "experts.batched_fc2_w", "gates.0.cosine_projector.bias",
                "gates.0.cosine_projector.weight", "gates.0.sim_matrix", "gates.0.temperature"}));
}

TEST(MoeLayer, BiasBalancingMovesSelectionTowardIdleExperts) {
  auto c = small_moe(4, 1);
  c.bias_balancing.enabled = true;
  c.bias_balancing.rate = 0.02;
  auto layer = make_layer(8, c, at::kFloat);
  auto x = skewed_tokens(layer, 64, 8, at::kFloat);
  const auto before = layer->forward(x).stats.host();
  layer->update_selection_bias();
  auto bias = layer->selection_bias();
  for (int e = 0; e < 4; ++e) {
    const double mean = 16.0;
    const double want = before.counts[e] < mean ? 0.02 : (before.counts[e] > mean ? -0.02 : 0.0);
    EXPECT_FLOAT_EQ(bias[e].item<float>(), want) << "expert " << e;
  }
  for (int i = 0; i < 60; ++i) {
    layer->forward(x);
    layer->update_selection_bias();
  }
  EXPECT_LT(layer->forward(x).stats.host().cv, before.cv);
}

TEST(MoeLayer, GateNoiseOnlyInTraining) {
  auto c = small_moe(8, 2);
  c.gate_noise = 1.0;
  auto layer = make_layer(16, c, at::kFloat);
  auto x = torch::randn({64, 16});
  layer->eval();
  auto a = layer->forward(x).output;
  auto b = layer->forward(x).output;
  EXPECT_TRUE(a.equal(b));
  layer->train();
  EXPECT_FALSE(layer->forward(x).output.equal(layer->forward(x).output));
}

}  // namespace
}  // namespace moe::test

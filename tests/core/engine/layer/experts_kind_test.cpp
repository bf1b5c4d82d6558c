// What every kind of experts promises the token dispatchers (experts.h): forward_saving and
// backward by hand give what autograd gives through forward_with, and make_experts registers the
// weights under Tutel's names in the order the optimizer and checkpoints have always seen.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <optional>
#include <utility>
#include <vector>

#include "layer/experts.h"
#include "layer/token_dispatcher.h"
#include "layer_fixtures.h"

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

protocol::MoeConfig glu_config(bool biases, double limit) {
  protocol::MoeConfig c = ffn_config(biases, biases);
  c.expert_ffn = protocol::ExpertFfn::Glu;
  c.swiglu_limit = limit;
  c.swiglu_alpha = 1.702;
  return c;
}

// Every kind, with and without biases; GLU plain and clamped (GPT-OSS).
std::vector<protocol::MoeConfig> every_kind() {
  std::vector<protocol::MoeConfig> out;
  for (const bool biases : {true, false}) {
    out.push_back(ffn_config(biases, biases));
    out.push_back(glu_config(biases, 0.0));
    out.push_back(glu_config(biases, 0.5));
  }
  return out;
}

TEST(ExpertsKind, HandWrittenBackwardMatchesAutograd) {
  for (const auto& config : every_kind()) {
    torch::manual_seed(5);
    layer::Experts experts = layer::make_experts(6, config);
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

// The gated experts against the formula in plain ATen ops, autograd doing the backward: the
// hand-written passes (bias, activation and product in one pass; the gradients of g and u in
// another) compute SwiGLU and its gradients, plain and clamped.
TEST(ExpertsKind, GluMatchesItsFormula) {
  for (const double limit : {0.0, 0.5}) {
    torch::manual_seed(11);
    layer::Experts experts = layer::make_experts(6, glu_config(true, limit));
    experts->to(at::kDouble);
    const auto w = experts->weights();
    const auto d = torch::randn({3, 5, 6}, at::kDouble).requires_grad_(true);
    const auto grad_y = torch::randn({3, 5, 6}, at::kDouble);
    experts->forward_with(d, w).backward(grad_y);

    const auto d_ref = d.detach().clone().requires_grad_(true);
    std::vector<at::Tensor> w_ref;
    for (const auto& t : w) w_ref.push_back(t.detach().clone().requires_grad_(true));
    auto g = at::einsum("ecm,ehm->ech", {d_ref, w_ref[0]}) + w_ref[1].unsqueeze(1);
    auto u = at::einsum("ecm,ehm->ech", {d_ref, w_ref[2]}) + w_ref[3].unsqueeze(1);
    at::Tensor a = at::silu(g) * u;
    if (limit > 0) {
      const auto gc = g.clamp_max(limit);
      a = gc * at::sigmoid(1.702 * gc) * (u.clamp(-limit, limit) + 1);
    }
    const auto y_ref = at::einsum("ech,ehm->ecm", {a, w_ref[4]}) + w_ref[5].unsqueeze(1);
    y_ref.backward(grad_y);

    EXPECT_TRUE(torch::allclose(experts->forward_with(d, w), y_ref, 1e-12, 1e-12)) << limit;
    EXPECT_TRUE(torch::allclose(d.grad(), d_ref.grad(), 1e-12, 1e-12)) << limit;
    for (size_t i = 0; i < w.size(); ++i) {
      EXPECT_TRUE(torch::allclose(w[i].grad(), w_ref[i].grad(), 1e-12, 1e-12))
          << "limit " << limit << ", weight " << i;
    }
  }
}

// The ragged path (forward_rows): expert e computes on its first rows[e] slots alone. Its output
// there and every gradient equal the padded computation's on a buffer whose other slots are zero
// (as dispatch leaves them); its output elsewhere is zero. Rows of 0 and of the whole capacity
// included.
TEST(ExpertsKind, RaggedRowsMatchThePaddedBuffer) {
  const auto rows = torch::tensor({2, 0, 5}, at::kLong);
  const auto used = (torch::arange(5, at::kLong).unsqueeze(0) < rows.unsqueeze(1)).unsqueeze(2);
  for (const auto& config : every_kind()) {
    torch::manual_seed(3);
    layer::Experts experts = layer::make_experts(6, config);
    experts->to(at::kDouble);
    const auto w = experts->weights();
    const auto x = torch::randn({3, 5, 6}, at::kDouble) * used;
    const auto grad_y = torch::randn({3, 5, 6}, at::kDouble) * used;

    const auto d_pad = x.clone().requires_grad_(true);
    const auto y_pad = experts->forward_with(d_pad, w);
    y_pad.backward(grad_y);
    std::vector<at::Tensor> grads_pad;
    for (const auto& t : w) {
      grads_pad.push_back(t.defined() ? t.grad().clone() : at::Tensor());
      if (t.defined()) t.mutable_grad().reset();
    }

    const auto d = x.clone().requires_grad_(true);
    const auto y = experts->forward_with(d, w, rows);
    y.backward(grad_y);
    EXPECT_TRUE(torch::allclose(y, y_pad * used, 1e-12, 1e-12));
    EXPECT_EQ(y.masked_select(used.logical_not()).abs().max().item<double>(), 0.0);
    EXPECT_TRUE(torch::allclose(d.grad() * used, d_pad.grad() * used, 1e-12, 1e-12));
    for (size_t i = 0; i < w.size(); ++i) {
      if (!w[i].defined()) continue;
      EXPECT_TRUE(torch::allclose(w[i].grad(), grads_pad[i], 1e-12, 1e-12)) << "weight " << i;
    }
  }
}

// Through the layer: dropless routing on one CPU process takes the ragged path, whose output and
// gradients equal the padded buffer's (PaddedExpertsScope).
TEST(ExpertsKind, DroplessLayerRaggedEqualsPadded) {
  for (const auto ffn : {protocol::ExpertFfn::Mlp, protocol::ExpertFfn::Glu}) {
    protocol::MoeConfig c = test::small_moe(5, 2);
    c.capacity_factor = 0;  // dropless
    c.expert_ffn = ffn;
    c.activation = protocol::Activation::Silu;
    auto layer = test::make_layer(6, c, at::kDouble);
    const auto x = test::skewed_tokens(layer, 40, 6, at::kDouble);
    const auto grad_out = torch::randn({40, 6}, at::kDouble);
    auto run = [&](bool padded) {
      std::optional<layer::PaddedExpertsScope> scope;
      if (padded) scope.emplace();
      const auto xi = x.clone().requires_grad_(true);
      const auto out = layer->forward(xi);
      out.output.backward(grad_out);
      std::vector<at::Tensor> result{out.output.detach(), xi.grad()};
      for (auto& p : layer->parameters()) {
        result.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros({0}, at::kDouble));
        p.mutable_grad().reset();
      }
      return std::make_pair(result, out.stats);
    };
    const auto [ragged, stats] = run(false);
    const auto [padded, _] = run(true);
    // The case the path is for: far fewer routed rows than the padded buffer holds.
    ASSERT_TRUE(layer::ragged_experts(stats.kept, stats.demand, c.experts * stats.capacity, true));
    ASSERT_EQ(ragged.size(), padded.size());
    for (size_t i = 0; i < ragged.size(); ++i) {
      EXPECT_TRUE(torch::allclose(ragged[i], padded[i], 1e-12, 1e-12)) << "tensor " << i;
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

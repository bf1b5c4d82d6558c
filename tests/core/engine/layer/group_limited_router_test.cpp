// DeepSeek's routing (layer/group_limited_router.h) and the sequence-wise balance loss, on small
// cases worked out by hand (docs/ROUTING.md, "Group-limited routing").
#include <gtest/gtest.h>

#include <cmath>

#include "layer/aux_losses.h"
#include "layer/router.h"

namespace moe::test {
namespace {

protocol::MoeConfig deepseek_v3(int64_t experts, int64_t k, int64_t groups, int64_t topk_groups) {
  protocol::MoeConfig c;
  c.experts = experts;
  c.top_k = k;
  c.router = protocol::RouterKind::GroupLimitedTopK;
  c.score_function = protocol::ScoreFunction::Sigmoid;
  c.group_score = protocol::GroupScore::TopTwoSum;
  c.expert_groups = groups;
  c.topk_groups = topk_groups;
  c.routed_scaling = 2.5;
  c.capacity_factor = 0.0;
  c.fp32_gate = false;
  return c;
}

// A router whose gate's logits are the tokens themselves (identity weight, model dim = E).
std::unique_ptr<layer::Router> identity_router(const protocol::MoeConfig& c) {
  auto router = layer::make_router(c.experts, c);
  at::NoGradGuard no_grad;
  for (auto& p : router->gate().parameters()) p.copy_(torch::eye(c.experts, at::kDouble));
  router->gate().to(at::kDouble);
  return router;
}

std::vector<int64_t> chosen(const layer::Routing& r, int64_t token) {
  std::vector<int64_t> out;
  for (int64_t j = 0; j < r.plan.top_k; ++j) out.push_back(r.plan.idx[j][token].item<int>());
  std::sort(out.begin(), out.end());
  return out;
}

double logit(double p) {
  return std::log(p / (1 - p));
}

TEST(GroupLimitedRouter, ChoosesInsideTheBestGroupsByTheirTopTwo) {
  // 6 experts in 3 groups of 2; sigmoid scores chosen directly through their logits.
  // Group sums of the top two: {0.9 + 0.1, 0.6 + 0.6, 0.55 + 0.5} = {1.0, 1.2, 1.05}: groups 1 and
  // 2 win although expert 0 has the best score, so k = 2 takes experts 2 and 3.
  const double p[6] = {0.9, 0.1, 0.6, 0.6, 0.55, 0.5};
  auto x = torch::empty({1, 6}, at::kDouble);
  for (int e = 0; e < 6; ++e) x[0][e] = logit(p[e]);
  auto router = identity_router(deepseek_v3(6, 2, 3, 2));
  const auto r = router->route(x, at::kDouble, {});
  EXPECT_EQ(chosen(r, 0), (std::vector<int64_t>{2, 3}));
  // Gate values: the chosen sigmoid scores, normalised over the k, times routed_scaling.
  EXPECT_NEAR(r.gates[0][0].item<double>(), 0.5 * 2.5, 1e-12);
  EXPECT_NEAR(r.gates[1][0].item<double>(), 0.5 * 2.5, 1e-12);
  // The scores the metrics read: the sigmoid normalised to sum to 1.
  EXPECT_NEAR(r.scores.sum().item<double>(), 1.0, 1e-12);
}

TEST(GroupLimitedRouter, TheSelectionBiasChoosesButNeverWeighs) {
  const double p[4] = {0.8, 0.7, 0.3, 0.2};
  auto x = torch::empty({1, 4}, at::kDouble);
  for (int e = 0; e < 4; ++e) x[0][e] = logit(p[e]);
  auto c = deepseek_v3(4, 1, 1, 1);
  c.bias_balancing.enabled = true;
  c.normalize_gate = false;
  auto router = identity_router(c);
  router->set_selection_bias(torch::tensor({0.0, 0.0, 0.6, 0.0}));
  const auto r = router->route(x, at::kDouble, {});
  EXPECT_EQ(chosen(r, 0), (std::vector<int64_t>{2}));          // 0.3 + 0.6 beats 0.8
  EXPECT_NEAR(r.gates[0][0].item<double>(), 0.3 * 2.5, 1e-7);  // the unbiased score
}

TEST(GroupLimitedRouter, SoftmaxGroupsScoreByTheirBestExpert) {
  // DeepSeek-V2: softmax scores, a group's score its best expert's. Groups {0, 1} and {2, 3}:
  // maxima 0.5 vs 0.3 + ..., k = 2 inside the one best group even though expert 2 beats 1.
  auto c = deepseek_v3(4, 2, 2, 1);
  c.score_function = protocol::ScoreFunction::Softmax;
  c.group_score = protocol::GroupScore::Max;
  c.normalize_gate = false;
  c.routed_scaling = 1.0;
  auto probs = torch::tensor({{0.5, 0.05, 0.3, 0.15}}, at::kDouble);
  auto router = identity_router(c);
  const auto r = router->route(probs.log(), at::kDouble, {});
  EXPECT_EQ(chosen(r, 0), (std::vector<int64_t>{0, 1}));
  EXPECT_NEAR(r.gates[0][0].item<double>() + r.gates[1][0].item<double>(), 0.55, 1e-12);
}

TEST(AuxLoss, SeqBalanceAveragesEachSequencesLoadTimesScore) {
  // Two sequences of two tokens, 2 experts, k = 1. Sequence 0 sends both tokens to expert 0:
  // f = E / (k T) * counts = [2, 0], P = mean scores = [0.7, 0.3] -> 1.4. Sequence 1 sends one
  // token to each: f = [1, 1], P = [0.5, 0.5] -> 1.0. The loss is their mean, 1.2.
  auto scores = torch::tensor({{0.8, 0.2}, {0.6, 0.4}, {0.9, 0.1}, {0.1, 0.9}}, at::kDouble);
  auto idx = torch::tensor({{0, 0, 0, 1}}, at::kInt);
  EXPECT_NEAR(layer::seq_balance_loss(scores, idx, 2).item<double>(), 1.2, 1e-12);
  // One sequence of four: f = [1.5, 0.5], P = [0.6, 0.4] -> 1.1.
  EXPECT_NEAR(layer::seq_balance_loss(scores, idx, 0).item<double>(), 1.1, 1e-12);
}

}  // namespace
}  // namespace moe::test

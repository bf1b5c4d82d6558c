// moe-train analyze: each MoE layer's expert counts equal a direct count of the top-k of the router
// logits `moe-train forward` writes for the same token ids (a Mixtral-like decoder: plain softmax
// top-k, so the k largest logits are the choice).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>

#include "run_fixtures.h"
#include "safetensors_view.h"

namespace moe::test {
namespace {

nlohmann::json tiny_mixtral(const std::string& corpus) {
  nlohmann::json c = tiny_config("decoder");
  c["model"].update({{"family", "mixtral"}, {"kv_heads", 1}, {"tie_embeddings", false}});
  c["moe"].update({{"activation", "silu"},
                   {"expert_ffn", "glu"},
                   {"capacity_factor", 0.0},
                   {"router", "top_k_softmax"},
                   {"aux_loss", "hf_load_balancing"}});
  c["train"].update({{"steps", 1}, {"batch_size", 4}, {"checkpoint_every", 1}});
  c["data"] = {{"kind", "text"}, {"path", corpus}};
  return c;
}

// Per expert, how often it is among the k largest logits of a row of [N, E].
std::vector<int64_t> top_k_counts(const TensorView& logits, int64_t k) {
  const auto values = double_values(logits);
  const int64_t N = logits.shape.at(0), E = logits.shape.at(1);
  std::vector<int64_t> counts(E, 0);
  std::vector<int64_t> order(E);
  for (int64_t n = 0; n < N; ++n) {
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int64_t a, int64_t b) { return values[n * E + a] > values[n * E + b]; });
    for (int64_t j = 0; j < k; ++j) ++counts[order[j]];
  }
  return counts;
}

TEST(AnalyzeE2E, CountsEqualTopKOfForwardRouterLogits) {
  TempDir dir;
  const auto corpus = write_text_file(dir.file("corpus.txt"), 6000);
  const auto config = write_config(dir, "config.json", tiny_mixtral(corpus));
  const auto run_dir = dir.file("run");
  auto trained = run_moe_train({"run", "--config", config, "--run-dir", run_dir});
  ASSERT_EQ(trained.exit_status, 0) << trained.err;

  const auto report_path = dir.file("analyze.json");
  const auto ids_path = dir.file("ids.json");
  auto analyzed =
      run_moe_train({"analyze", "--model", run_dir, "--data", corpus, "--tokens", "300",
                     "--capacity-factors", "1,2", "--out", report_path, "--tokens-out", ids_path});
  ASSERT_EQ(analyzed.exit_status, 0) << analyzed.err;
  const auto out = dir.file("forward.safetensors");
  auto forward = run_moe_train({"forward", "--model", run_dir, "--tokens", ids_path, "--out", out});
  ASSERT_EQ(forward.exit_status, 0) << forward.err;

  const auto report = nlohmann::json::parse(read_file(report_path));
  const auto tensors = read_tensor_views(out);
  ASSERT_EQ(report.at("layers").size(), 2u);
  for (const auto& layer : report.at("layers")) {
    const auto name = "router_logits." + std::to_string(layer.at("layer").get<int64_t>());
    ASSERT_TRUE(tensors.count(name)) << name;
    const auto& logits = tensors.at(name);
    EXPECT_EQ(layer.at("tokens").get<int64_t>(), logits.shape.at(0));
    const auto load = layer.at("load").get<std::vector<int64_t>>();
    EXPECT_EQ(load, top_k_counts(logits, 2)) << name;
    // The co-selection matrix's diagonal is the load; factor 2 of E = 4, k = 2 drops nothing.
    for (size_t e = 0; e < load.size(); ++e) {
      EXPECT_EQ(layer.at("co_selection").at(e).at(e).get<int64_t>(), load[e]);
    }
    EXPECT_EQ(layer.at("capacity").at(1).at("dropped").get<int64_t>(), 0);
  }

  auto bad = run_moe_train({"analyze", "--model", run_dir, "--data", dir.file("missing.txt")});
  EXPECT_EQ(bad.exit_status, 2) << bad.err;
  EXPECT_NE(bad.err.find("missing.txt"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace moe::test

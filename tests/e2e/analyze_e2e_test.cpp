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

// A one-step run of tiny_mixtral on `corpus` in `run_dir`, with its checkpoint.
void train_tiny_mixtral(const TempDir& dir, const std::string& corpus, const std::string& run_dir) {
  const auto config = write_config(dir, "config.json", tiny_mixtral(corpus));
  auto trained = run_moe_train({"run", "--config", config, "--run-dir", run_dir});
  ASSERT_EQ(trained.exit_status, 0) << trained.err;
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
  const auto run_dir = dir.file("run");
  ASSERT_NO_FATAL_FAILURE(train_tiny_mixtral(dir, corpus, run_dir));

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

// --capture: the first batch's layer inputs and weights as training's captures, which replay reads
// with the config beside them; without --out, a run keeps its report in <run>/analysis/.
TEST(AnalyzeE2E, CaptureReplaysAndRunKeepsItsAnalysis) {
  TempDir dir;
  const auto corpus = write_text_file(dir.file("corpus.txt"), 6000);
  const auto run_dir = dir.file("run");
  ASSERT_NO_FATAL_FAILURE(train_tiny_mixtral(dir, corpus, run_dir));

  const auto capture = dir.file("capture");
  auto analyzed = run_moe_train({"analyze", "--model", run_dir, "--data", corpus, "--tokens", "300",
                                 "--batch-size", "2", "--capture", capture});
  ASSERT_EQ(analyzed.exit_status, 0) << analyzed.err;
  const auto report = nlohmann::json::parse(read_file(run_dir + "/analysis/analysis.json"));
  ASSERT_EQ(report.at("layers").size(), 2u);
  EXPECT_EQ(report.at("capture_dir").get<std::string>(), capture);
  // One capture event per layer on stdout, each naming its file.
  EXPECT_NE(analyzed.out.find("\"type\":\"capture\""), std::string::npos) << analyzed.out;
  const int64_t seq_len = tiny_mixtral(corpus).at("model").at("seq_len").get<int64_t>();
  for (size_t i = 0; i < 2; ++i) {
    const auto file = capture + "/" + report.at("layers").at(i).at("capture").get<std::string>();
    const auto tensors = read_tensor_views(file);
    ASSERT_TRUE(tensors.count("input")) << file;
    EXPECT_EQ(tensors.at("input").shape.at(0), 2 * seq_len) << file;  // the first batch
    const auto out = dir.file("replay-" + std::to_string(i) + ".safetensors");
    auto replayed = run_moe_train(
        {"replay", "--config", capture + "/config.json", "--tensors", file, "--out", out});
    ASSERT_EQ(replayed.exit_status, 0) << replayed.err;
    EXPECT_EQ(read_tensor_views(out).at("output").shape.at(0), 2 * seq_len);
  }
}

}  // namespace
}  // namespace moe::test

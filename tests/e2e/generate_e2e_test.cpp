// moe-train generate --telemetry: a batch of prompts decoded two at a time reports, for every
// generated token, the experts and weights of the position that chose it; they equal the top-k of
// the router logits `moe-train forward` writes for the finished sequence, renormalised as a
// Mixtral router renormalises them (tiny-mixtral preset, one training step).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

#include "run_fixtures.h"
#include "safetensors_view.h"

namespace moe::test {
namespace {

// Row n's k largest logits of [N, E], largest first, and their softmax renormalised over the k.
std::pair<std::vector<int64_t>, std::vector<double>> top_k_row(const std::vector<double>& logits,
                                                               int64_t experts, int64_t n,
                                                               int64_t k) {
  std::vector<int64_t> order(static_cast<size_t>(experts));
  std::iota(order.begin(), order.end(), 0);
  const auto row = logits.begin() + n * experts;
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int64_t a, int64_t b) { return row[a] > row[b]; });
  order.resize(static_cast<size_t>(k));
  std::vector<double> weights;
  double sum = 0;
  for (int64_t e : order) sum += std::exp(row[e] - row[order[0]]);
  for (int64_t e : order) weights.push_back(std::exp(row[e] - row[order[0]]) / sum);
  return {order, weights};
}

TEST(GenerateE2E, TelemetryRoutingEqualsForwardRouterLogits) {
  TempDir dir;
  const auto corpus = write_text_file(dir.file("corpus.txt"), 6000);
  const auto run_dir = dir.file("run");
  auto trained = run_moe_train({"run", "--config", MOE_PRESETS_DIR "/tiny-mixtral.json",
                                "--run-dir", run_dir, "--set", "data.path=" + corpus, "--set",
                                "train.steps=1", "--set", "train.batch_size=2", "--set",
                                "train.eval_every=0", "--set", "train.checkpoint_every=1"});
  ASSERT_EQ(trained.exit_status, 0) << trained.err;
  const std::vector<std::vector<int64_t>> ids = {{72, 101, 108}, {87, 104, 97, 116, 32}, {65}};
  const auto prompts_file = dir.file("prompts.json");
  {
    std::ofstream f(prompts_file);
    f << nlohmann::json(ids).dump();
  }
  const auto telemetry = dir.file("generate.jsonl");
  auto generated =
      run_moe_train({"generate", "--model", run_dir, "--prompt-tokens", prompts_file, "--greedy",
                     "--ignore-eos", "--max-new-tokens", "5", "--batch-size", "2", "--telemetry",
                     telemetry, "--json", dir.file("generate.json")});
  ASSERT_EQ(generated.exit_status, 0) << generated.err;
  const auto events = events_of(read_file(telemetry));
  ASSERT_EQ(events_of_type(events, "generate_start").size(), 1u);
  ASSERT_EQ(events_of_type(events, "prompt_end").size(), 3u);
  ASSERT_EQ(events_of_type(events, "generate_end").size(), 1u);
  EXPECT_FALSE(events_of_type(events, "decode_step").empty());
  for (const auto& step : events_of_type(events, "decode_step")) {
    EXPECT_LE(step.at("batch").get<int64_t>(), 2);
    EXPECT_TRUE(step.at("phases").contains("experts")) << step.dump();
    EXPECT_TRUE(step.at("phases").contains("attention")) << step.dump();
  }
  const auto sequences = nlohmann::json::parse(read_file(dir.file("generate.json"))).at("tokens");
  const auto tokens = events_of_type(events, "token");
  ASSERT_EQ(tokens.size(), 15u);
  for (size_t p = 0; p < ids.size(); ++p) {
    const auto sequence = sequences.at(p).get<std::vector<int64_t>>();
    const auto one = dir.file("seq" + std::to_string(p) + ".json");
    {
      std::ofstream f(one);
      f << nlohmann::json({sequence}).dump();
    }
    const auto out = dir.file("forward" + std::to_string(p) + ".safetensors");
    auto forward = run_moe_train({"forward", "--model", run_dir, "--tokens", one, "--out", out});
    ASSERT_EQ(forward.exit_status, 0) << forward.err;
    const auto tensors = read_tensor_views(out);
    for (const auto& token : tokens) {
      if (token.at("prompt").get<size_t>() != p) continue;
      // The position whose logits chose the token: the prompt's last, then each generated one.
      const int64_t n = static_cast<int64_t>(ids[p].size()) - 1 + token.at("index").get<int64_t>();
      EXPECT_EQ(token.at("id").get<int64_t>(), sequence.at(static_cast<size_t>(n + 1)));
      ASSERT_EQ(token.at("routing").size(), 3u);  // the preset's three MoE layers
      for (const auto& choice : token.at("routing")) {
        const auto name = "router_logits." + std::to_string(choice.at("layer").get<int64_t>());
        ASSERT_TRUE(tensors.count(name)) << name;
        const auto& logits = tensors.at(name);
        const auto [experts, weights] = top_k_row(double_values(logits), logits.shape.at(1), n, 2);
        EXPECT_EQ(choice.at("experts").get<std::vector<int64_t>>(), experts) << name << " n " << n;
        const auto got = choice.at("weights").get<std::vector<double>>();
        for (size_t j = 0; j < weights.size(); ++j) EXPECT_NEAR(got.at(j), weights[j], 1e-5);
      }
    }
  }

  auto bad = run_moe_train(
      {"generate", "--model", run_dir, "--prompt-tokens", prompts_file, "--batch-size", "0"});
  EXPECT_EQ(bad.exit_status, 2) << bad.err;
  EXPECT_NE(bad.err.find("--batch-size"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace moe::test

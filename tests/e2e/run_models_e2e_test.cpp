// moe-train run: every model on every data kind, end to end, with the telemetry stream checked
// against docs/PROTOCOL.md, "Telemetry".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "protocol/telemetry_reader.h"
#include "run_fixtures.h"

namespace moe::test {
namespace {

struct RunCase {
  std::string label, model, data;
};

nlohmann::json config_for(const RunCase& c, const TempDir& dir) {
  nlohmann::json config = tiny_config(c.model);
  config["data"]["kind"] = c.data;
  if (c.data == "text") config["data"]["path"] = write_text_file(dir.file("text.txt"), 20000);
  if (c.data == "idx") config["data"]["path"] = write_idx_dataset(dir.file("idx"), 64, 24);
  if (c.data == "cifar10") config["data"]["path"] = write_cifar_dataset(dir.file("cifar"), 64, 24);
  config["train"]["eval_every"] = 2;
  config["train"]["eval_batches"] = 2;
  config["train"]["checkpoint_every"] = 2;
  config["moe"]["every"] = 2;  // MoE in blocks 0 and 2..., a dense FFN in block 1
  return config;
}

// The number of MoE layers a tiny config has: helloworld 1, others ceil(layers / every).
int64_t moe_layers(const nlohmann::json& config) {
  if (config["model"]["kind"] == "helloworld") return 1;
  const int64_t layers = config["model"]["layers"], every = config["moe"]["every"];
  return (layers + every - 1) / every;
}

class RunModels : public ::testing::TestWithParam<RunCase> {};

TEST_P(RunModels, StreamsEverySpecEventAndCompletes) {
  TempDir dir;
  nlohmann::json config = config_for(GetParam(), dir);
  const std::string run_dir = dir.file("run");
  auto r =
      run_moe_train({"run", "--config", write_config(dir, "c.json", config), "--run-dir", run_dir});
  ASSERT_EQ(r.exit_status, 0) << r.err;

  // Every line is a well-formed, known event (the GUI's reader counts nothing as bad).
  protocol::TelemetryReader reader;
  auto parsed = reader.feed(r.out);
  EXPECT_EQ(reader.stats().malformed, 0) << reader.last_error();
  EXPECT_EQ(reader.stats().unknown, 0);
  EXPECT_EQ(reader.pending_bytes(), 0u) << "the stream must end with a newline";

  auto events = events_of(r.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front()["type"], "run_start");
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["status"], "completed");
  EXPECT_EQ(events.back()["steps"], 4);
  double last_t = 0;
  for (const auto& e : events) {
    EXPECT_EQ(e["v"], 1);
    EXPECT_GE(e["t"].get<double>(), last_t) << e.dump();
    last_t = e["t"];
  }
  EXPECT_EQ(events_of_type(events, "step").size(), 4u);
  EXPECT_EQ(events_of_type(events, "expert_load").size(), 4u * moe_layers(config));
  for (const auto& p : events_of_type(events, "phases")) {
    for (const char* name :
         {"gate", "dispatch", "a2a", "experts", "combine", "backward", "optimizer", "other"}) {
      EXPECT_TRUE(p["ms"].contains(name)) << name;
    }
    EXPECT_GT(p["ms"]["experts"].get<double>(), 0.0);
  }
  auto evals = events_of_type(events, "eval");
  ASSERT_EQ(evals.size(), 2u);  // steps 2 and 4
  EXPECT_EQ(evals[0].contains("accuracy"), GetParam().model == "image");
  EXPECT_EQ(events_of_type(events, "checkpoint").size(), 2u);
  for (const auto& s : events_of_type(events, "step")) {
    EXPECT_TRUE(std::isfinite(s["loss"].get<double>()));
    EXPECT_GT(s["tokens_per_s"].get<double>(), 0.0);
    EXPECT_EQ(s.contains("tflops"), GetParam().model == "helloworld");
  }

  // The run directory: the same lines in metrics.jsonl, the resolved config, a stderr log.
  std::ifstream metrics(run_dir + "/metrics.jsonl");
  std::stringstream copy;
  copy << metrics.rdbuf();
  EXPECT_EQ(copy.str(), r.out);
  EXPECT_TRUE(std::filesystem::exists(run_dir + "/config.json"));
  EXPECT_TRUE(std::filesystem::exists(run_dir + "/checkpoints/step-4/model.safetensors"));
  EXPECT_TRUE(std::filesystem::exists(run_dir + "/stderr.log"));
  EXPECT_NE(r.err.find("parameters"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no progress line when stderr is not a TTY";
}

INSTANTIATE_TEST_SUITE_P(EveryModelAndData, RunModels,
                         ::testing::Values(RunCase{"helloworld", "helloworld", "synthetic"},
                                           RunCase{"lm_synthetic", "lm", "synthetic"},
                                           RunCase{"lm_text", "lm", "text"},
                                           RunCase{"image_idx", "image", "idx"},
                                           RunCase{"image_cifar", "image", "cifar10"}),
                         [](const auto& info) { return info.param.label; });

TEST(RunModels, TrainsInEveryDtypeAndWithAutocast) {
  TempDir dir;
  for (const auto& [dtype, amp] : std::vector<std::pair<std::string, bool>>{
           {"float64", false}, {"bfloat16", false}, {"float32", true}}) {
    nlohmann::json config = tiny_config("image");
    config["train"].update({{"dtype", dtype}, {"amp", amp}});
    auto r = run_moe_train({"run", "--config", write_config(dir, dtype + ".json", config),
                            "--runs-root", dir.file("runs")});
    ASSERT_EQ(r.exit_status, 0) << dtype << (amp ? " amp" : "") << r.err;
    auto losses = step_losses(events_of(r.out));
    ASSERT_EQ(losses.size(), 4u);
    for (const auto& [step, loss] : losses) EXPECT_TRUE(std::isfinite(loss)) << step;
    if (amp) {
      EXPECT_NE(r.err.find("autocast"), std::string::npos) << r.err;
    }
  }
}

TEST(RunModels, TelemetryEveryThinsStepEvents) {
  TempDir dir;
  nlohmann::json config = tiny_config("helloworld");
  config["train"]["steps"] = 7;
  config["telemetry"] = {{"every", 3}, {"phases", false}};
  auto r = run_moe_train(
      {"run", "--config", write_config(dir, "c.json", config), "--runs-root", dir.file("runs")});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  auto events = events_of(r.out);
  std::vector<int64_t> steps;
  for (const auto& e : events_of_type(events, "step")) steps.push_back(e["step"]);
  EXPECT_EQ(steps, (std::vector<int64_t>{3, 6, 7}));  // and always the last one
  EXPECT_EQ(events_of_type(events, "expert_load").size(), 3u);
  EXPECT_TRUE(events_of_type(events, "phases").empty());
}

TEST(RunModels, TraceFileOpensAsChromeTrace) {
  TempDir dir;
  nlohmann::json config = tiny_config("lm");
  config["telemetry"]["trace"] = true;
  const std::string run_dir = dir.file("run");
  auto r =
      run_moe_train({"run", "--config", write_config(dir, "c.json", config), "--run-dir", run_dir});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  std::ifstream in(run_dir + "/trace.json");
  nlohmann::json trace = nlohmann::json::parse(in);
  std::set<std::string> names;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X") {
      EXPECT_GE(e.at("dur").get<int64_t>(), 0);
      names.insert(e.at("name"));
    }
  }
  for (const char* n :
       {"step", "forward", "gate", "dispatch", "experts", "combine", "backward", "optimizer"}) {
    EXPECT_TRUE(names.count(n)) << n;
  }
}

TEST(RunModels, LossFallsOnLearnableData) {
  TempDir dir;
  for (const std::string kind : {"lm", "image"}) {
    nlohmann::json config = tiny_config(kind);
    config["model"]["vocab"] = 64;  // a Markov chain over 64 tokens: learnable in 40 steps
    if (kind == "image") {
      config["data"] = {{"kind", "idx"}, {"path", write_idx_dataset(dir.file("idx"), 256, 32)}};
    }
    config["train"]["steps"] = 40;
    auto r = run_moe_train({"run", "--config", write_config(dir, kind + ".json", config),
                            "--runs-root", dir.file("runs")});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    auto losses = step_losses(events_of(r.out));
    double first = 0, last = 0;
    for (int s = 1; s <= 5; ++s) first += losses.at(s) / 5;
    for (int s = 36; s <= 40; ++s) last += losses.at(s) / 5;
    EXPECT_LT(last, 0.8 * first) << kind;
  }
}

}  // namespace
}  // namespace moe::test

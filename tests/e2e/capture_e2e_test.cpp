// telemetry.capture_every end to end: a real run writes captures/step-<s>/layer-<i>.safetensors
// with the layer's input and weights under replay's names, a `capture` event per file, stays within
// telemetry.capture_max_mb, trains exactly as without capturing, and a captured file replays to the
// routing the run reported; on two ranks the file holds every expert and the whole batch.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "distributed_fixtures.h"
#include "safetensors_view.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

// The lm model: two MoE layers, inputs after attention.
nlohmann::json lm_capturing(int every) {
  nlohmann::json c = tiny_config("lm");
  c["train"]["steps"] = 4;
  c["telemetry"] = {{"capture_every", every}};
  return c;
}

// helloworld, float64 (tight comparisons across ranks), E = 4 with drops.
nlohmann::json helloworld_f64() {
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4}, {"top_k", 2}, {"hidden", 24}, {"fp32_gate", false}};
  c["train"].update({{"steps", 3}, {"batch_size", 8}, {"dtype", "float64"}, {"lr", 0.05}});
  c["telemetry"] = {{"capture_every", 2}};
  return c;
}

std::vector<int64_t> shape_of(const std::map<std::string, TensorView>& file,
                              const std::string& name) {
  auto it = file.find(name);
  return it == file.end() ? std::vector<int64_t>{} : it->second.shape;
}

const nlohmann::json* find_event(const std::vector<nlohmann::json>& events, const std::string& type,
                                 int64_t step, int64_t layer) {
  for (const auto& e : events) {
    if (e.at("type") == type && e.at("step") == step && e.value("layer", int64_t{-1}) == layer)
      return &e;
  }
  return nullptr;
}

// One-shot replay of a captured file with the run's own config: the routing it computes.
std::map<std::string, TensorView> replay(const RankRun& run, const std::string& relative,
                                         const TempDir& dir, const std::string& name) {
  const std::string out = dir.file(name + ".safetensors");
  auto r = run_moe_train({"replay", "--config", run.dir + "/config.json", "--tensors",
                          run.dir + "/" + relative, "--out", out});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  return read_tensor_views(out);
}

// The routing replayed from the capture is the one the run reported for that step and layer.
void expect_replay_matches_expert_load(const RankRun& run, const TempDir& dir, int64_t step,
                                       int64_t layer) {
  SCOPED_TRACE("step " + std::to_string(step) + " layer " + std::to_string(layer));
  const auto* capture = find_event(run.events, "capture", step, layer);
  const auto* load = find_event(run.events, "expert_load", step, layer);
  ASSERT_TRUE(capture && load);
  auto out = replay(run, capture->at("path"), dir,
                    "replay-" + std::to_string(step) + "-" + std::to_string(layer));
  EXPECT_EQ(int64_values(out.at("expert_counts")), load->at("counts").get<std::vector<int64_t>>());
  EXPECT_EQ(int64_values(out.at("expert_kept")), load->at("kept").get<std::vector<int64_t>>());
  EXPECT_EQ(int64_values(out.at("capacity")).at(0), load->at("capacity").get<int64_t>());
  EXPECT_NEAR(double_values(out.at("l_aux")).at(0), load->at("l_aux").get<double>(), 1e-5);
}

TEST(Capture, EveryLayerAtEveryCaptureStep) {
  TempDir dir;
  const RankRun run = run_on_ranks(dir, lm_capturing(2), 1, "lm");
  const auto captures = events_of_type(run.events, "capture");
  ASSERT_EQ(captures.size(), 4u);  // steps 2 and 4, layers 0 and 1
  const int64_t N = 8 * 16, M = 32, E = 4, H = 32;
  size_t i = 0;
  for (int64_t step : {2, 4}) {
    for (int64_t layer : {0, 1}) {
      const auto& e = captures[i++];
      EXPECT_EQ(e.at("step"), step);
      EXPECT_EQ(e.at("layer"), layer);
      const std::string path = "captures/step-" + std::to_string(step) + "/layer-" +
                               std::to_string(layer) + ".safetensors";
      EXPECT_EQ(e.at("path"), path);
      EXPECT_EQ(e.at("tokens"), N);
      EXPECT_EQ(e.at("bytes").get<int64_t>(),
                static_cast<int64_t>(fs::file_size(run.dir + "/" + path)));
      const auto file = read_tensor_views(run.dir + "/" + path);
      EXPECT_EQ(shape_of(file, "input"), (std::vector<int64_t>{N, M}));
      EXPECT_EQ(file.at("input").dtype, "F32");
      EXPECT_EQ(shape_of(file, "gates.0.wg.weight"), (std::vector<int64_t>{E, M}));
      EXPECT_EQ(shape_of(file, "experts.batched_fc1_w"), (std::vector<int64_t>{E, H, M}));
      EXPECT_EQ(shape_of(file, "experts.batched_fc2_w"), (std::vector<int64_t>{E, H, M}));
      EXPECT_EQ(shape_of(file, "experts.batched_fc1_bias"), (std::vector<int64_t>{E, H}));
      EXPECT_EQ(shape_of(file, "experts.batched_fc2_bias"), (std::vector<int64_t>{E, M}));
      EXPECT_EQ(file.size(), 6u);  // input and the five parameters, nothing else
    }
  }
  // The events of a step come after its expert_load events.
  size_t last_load = 0, first_capture = run.events.size();
  for (size_t k = 0; k < run.events.size(); ++k) {
    const auto& e = run.events[k];
    if (e.at("type") == "expert_load" && e.at("step") == 2) last_load = k;
    if (e.at("type") == "capture" && first_capture == run.events.size()) first_capture = k;
  }
  EXPECT_LT(last_load, first_capture);
  EXPECT_FALSE(fs::exists(run.dir + "/captures/step-1"));
  EXPECT_FALSE(fs::exists(run.dir + "/captures/step-3"));
  // No temporary file is left behind.
  for (const auto& entry : fs::recursive_directory_iterator(run.dir + "/captures")) {
    if (entry.is_regular_file()) {
      EXPECT_EQ(entry.path().extension(), ".safetensors") << entry.path();
    }
  }
  expect_replay_matches_expert_load(run, dir, 2, 0);
  expect_replay_matches_expert_load(run, dir, 4, 1);
}

TEST(Capture, TrainsExactlyAsWithoutCapturing) {
  TempDir dir;
  const RankRun plain = run_on_ranks(dir, lm_capturing(0), 1, "plain");
  const RankRun capturing = run_on_ranks(dir, lm_capturing(1), 1, "capturing");
  EXPECT_TRUE(events_of_type(plain.events, "capture").empty());
  EXPECT_FALSE(fs::exists(plain.dir + "/captures"));
  EXPECT_EQ(events_of_type(capturing.events, "capture").size(), 8u);
  const auto a = step_losses(plain.events), b = step_losses(capturing.events);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a, b);  // bit for bit
  const auto la = events_of_type(plain.events, "expert_load");
  const auto lb = events_of_type(capturing.events, "expert_load");
  ASSERT_EQ(la.size(), lb.size());
  for (size_t i = 0; i < la.size(); ++i) EXPECT_EQ(la[i].at("counts"), lb[i].at("counts"));
}

TEST(Capture, StopsBeforePassingCaptureMaxMb) {
  TempDir dir;
  // One file: input 8 x 16 x 64 and two [4, 128, 64] expert weights in float32, about 290 KB, so
  // 1 MiB holds three steps and the fourth would pass it.
  nlohmann::json c = tiny_config("helloworld");
  c["model"]["dim"] = 64;
  c["moe"]["hidden"] = 128;
  c["train"]["steps"] = 6;
  c["telemetry"] = {{"capture_every", 1}, {"capture_max_mb", 1}};
  const RankRun run = run_on_ranks(dir, c, 1, "bounded");
  const auto captures = events_of_type(run.events, "capture");
  ASSERT_EQ(captures.size(), 3u);
  int64_t total = 0;
  for (const auto& e : captures) total += e.at("bytes").get<int64_t>();
  EXPECT_LE(total, int64_t{1} << 20);
  EXPECT_GT(total, 3 * 299008);  // the tensors' bytes alone
  EXPECT_TRUE(fs::exists(run.dir + "/captures/step-3/layer-0.safetensors"));
  EXPECT_FALSE(fs::exists(run.dir + "/captures/step-4"));
  int warnings = 0;
  for (const auto& e : events_of_type(run.events, "log")) {
    const std::string msg = e.at("msg");
    if (msg.find("capturing stopped") != std::string::npos) {
      ++warnings;
      EXPECT_EQ(e.at("level"), "warn");
      EXPECT_NE(msg.find("step 4"), std::string::npos) << msg;
      EXPECT_NE(msg.find("telemetry.capture_max_mb"), std::string::npos) << msg;
    }
  }
  EXPECT_EQ(warnings, 1);
  EXPECT_EQ(step_losses(run.events).size(), 6u);  // training goes on
}

TEST(Capture, AResumedRunCountsItsEarlierCaptures) {
  TempDir dir;
  // Files of about 290 KB as above: two steps before the resume, one more fits in 1 MiB after it.
  nlohmann::json c = tiny_config("helloworld");
  c["model"]["dim"] = 64;
  c["moe"]["hidden"] = 128;
  c["train"].update({{"steps", 2}, {"checkpoint_every", 2}});
  c["telemetry"] = {{"capture_every", 1}, {"capture_max_mb", 1}};
  const RankRun first = run_on_ranks(dir, c, 1, "resumed");
  ASSERT_EQ(events_of_type(first.events, "capture").size(), 2u);
  auto resumed = run_moe_train({"run", "--resume", first.dir, "--set", "train.steps=5"});
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  const auto events = events_of(resumed.out);
  const auto captures = events_of_type(events, "capture");
  ASSERT_EQ(captures.size(), 1u);
  EXPECT_EQ(captures[0].at("step"), 3);
  EXPECT_FALSE(fs::exists(first.dir + "/captures/step-4"));
  EXPECT_NE(resumed.err.find("capturing stopped at step 4"), std::string::npos) << resumed.err;
}

// A limit whose bytes pass what int64 holds is no limit (it once wrapped negative and stopped
// capturing at the first step).
TEST(Capture, AHugeCaptureMaxMbIsNoLimit) {
  TempDir dir;
  nlohmann::json c = tiny_config("helloworld");
  c["train"]["steps"] = 2;
  c["telemetry"] = {{"capture_every", 1}, {"capture_max_mb", int64_t{9'000'000'000'000}}};
  const RankRun run = run_on_ranks(dir, c, 1, "huge-limit");
  EXPECT_EQ(events_of_type(run.events, "capture").size(), 2u) << run.err;
  EXPECT_EQ(run.err.find("capturing stopped"), std::string::npos) << run.err;
}

// A step whose second file cannot be written (its name is taken by a directory) still announces
// the first, which is on disk complete; capturing stops with a warning and training goes on.
TEST(Capture, AFailedFileKeepsTheEventsOfTheFilesWrittenBeforeIt) {
  TempDir dir;
  nlohmann::json c = lm_capturing(2);
  c["train"].update({{"steps", 2}, {"checkpoint_every", 2}});
  const RankRun first = run_on_ranks(dir, c, 1, "blocked");
  ASSERT_EQ(events_of_type(first.events, "capture").size(), 2u);
  fs::create_directories(first.dir + "/captures/step-4/layer-1.safetensors/taken");
  auto resumed = run_moe_train({"run", "--resume", first.dir, "--set", "train.steps=6"});
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  const auto events = events_of(resumed.out);
  const auto captures = events_of_type(events, "capture");
  ASSERT_EQ(captures.size(), 1u) << resumed.out;
  EXPECT_EQ(captures[0].at("step"), 4);
  EXPECT_EQ(captures[0].at("layer"), 0);
  EXPECT_GT(captures[0].at("bytes").get<int64_t>(), 0);
  EXPECT_EQ(
      captures[0].at("bytes").get<int64_t>(),
      static_cast<int64_t>(fs::file_size(first.dir + "/captures/step-4/layer-0.safetensors")));
  EXPECT_NE(resumed.err.find("capturing stopped: step 4 could not be written"), std::string::npos)
      << resumed.err;
  EXPECT_FALSE(fs::exists(first.dir + "/captures/step-6"));
  EXPECT_EQ(step_losses(events).size(), 4u);  // steps 3 to 6
}

// With train.grad_accum = 2 the file holds the step's first micro-batch (docs/PROTOCOL.md): its
// tokens are half the step's, and its replay routes half the choices the step's expert_load sums.
TEST(Capture, WithGradAccumTheFileHoldsTheFirstMicroBatch) {
  TempDir dir;
  nlohmann::json c = tiny_config("helloworld");
  c["train"].update({{"steps", 1}, {"grad_accum", 2}});
  c["telemetry"] = {{"capture_every", 1}};
  const RankRun run = run_on_ranks(dir, c, 1, "accum");
  const auto* capture = find_event(run.events, "capture", 1, 0);
  const auto* load = find_event(run.events, "expert_load", 1, 0);
  const auto* step = find_event(run.events, "step", 1, -1);
  ASSERT_TRUE(capture && load && step);
  EXPECT_EQ(2 * capture->at("tokens").get<int64_t>(), step->at("tokens").get<int64_t>());
  const auto out = replay(run, capture->at("path"), dir, "accum-replay");
  int64_t replayed = 0, reported = 0;
  for (int64_t n : int64_values(out.at("expert_counts"))) replayed += n;
  for (int64_t n : load->at("counts").get<std::vector<int64_t>>()) reported += n;
  EXPECT_EQ(2 * replayed, reported);
}

TEST(Capture, TwoRanksWriteEveryExpertAndTheWholeBatch) {
  TempDir dir;
  const auto config = helloworld_f64();
  const RankRun one = run_on_ranks(dir, config, 1, "one");
  const RankRun two = run_on_ranks(dir, config, 2, "two");
  const std::string path = "captures/step-2/layer-0.safetensors";
  ASSERT_EQ(events_of_type(two.events, "capture").size(), 1u);
  EXPECT_FALSE(fs::exists(two.dir + "/captures/step-2/layer-1.safetensors"));
  const auto a = read_tensor_views(one.dir + "/" + path);
  const auto b = read_tensor_views(two.dir + "/" + path);
  const int64_t N = 8 * 16, M = 32;
  EXPECT_EQ(shape_of(b, "input"), (std::vector<int64_t>{N, M}));
  EXPECT_EQ(shape_of(b, "experts.batched_fc1_w"), (std::vector<int64_t>{4, 24, M}));
  EXPECT_EQ(find_event(two.events, "capture", 2, 0)->at("tokens"), N);
  // The same tensors as one process captured (training alike up to the order of sums).
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, t] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    const auto x = double_values(t), y = double_values(b.at(name));
    ASSERT_EQ(x.size(), y.size()) << name;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_NEAR(x[i], y[i], 1e-9 * std::max(1.0, std::fabs(x[i]))) << name << "[" << i << "]";
    }
  }
  expect_replay_matches_expert_load(two, dir, 2, 0);
}

}  // namespace
}  // namespace moe::test

// telemetry.tensorboard: a real run writes <run-dir>/tensorboard/events.out.tfevents.*, whose
// scalars are the values of metrics.jsonl; a resumed run adds a file of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "event_file_reader.h"
#include "run_fixtures.h"

namespace moe::test {
namespace {

using Scalars = std::map<std::string, std::map<int64_t, float>>;

// Every number metrics.jsonl gives for `tag` at `step` is the scalar TensorBoard shows.
void expect_scalar(const Scalars& scalars, const std::string& tag, int64_t step,
                   const nlohmann::json& value) {
  auto it = scalars.find(tag);
  ASSERT_NE(it, scalars.end()) << "no tag " << tag;
  auto at = it->second.find(step);
  ASSERT_NE(at, it->second.end()) << tag << " has no step " << step;
  EXPECT_EQ(at->second, static_cast<float>(value.get<double>())) << tag << " at step " << step;
}

// What metrics.jsonl holds, as tags: the scalars the files must have.
size_t expect_matches_metrics(const Scalars& scalars, const std::vector<nlohmann::json>& events) {
  size_t checked = 0;
  for (const auto& e : events) {
    const std::string type = e.at("type");
    const int64_t step = e.value("step", int64_t{-1});
    if (type == "step") {
      for (const char* f : {"loss", "task_loss", "aux_loss", "z_loss", "lr", "grad_norm"}) {
        expect_scalar(scalars, std::string("train/") + f, step, e.at(f));
        ++checked;
      }
      for (const char* f : {"tokens_per_s", "step_ms"}) {
        expect_scalar(scalars, std::string("speed/") + f, step, e.at(f));
        ++checked;
      }
    } else if (type == "expert_load") {
      const std::string prefix = "balance/layer" + std::to_string(e.at("layer").get<int>()) + "/";
      for (const char* f : {"dropped_frac", "cv", "max_over_mean", "load_entropy", "router_entropy",
                            "dead_experts", "l_aux"}) {
        expect_scalar(scalars, prefix + f, step, e.at(f));
        ++checked;
      }
    } else if (type == "phases") {
      for (const auto& [name, ms] : e.at("ms").items()) {
        expect_scalar(scalars, "phases/" + name + "_ms", step, ms);
        ++checked;
      }
    } else if (type == "eval") {
      expect_scalar(scalars, "eval/loss", step, e.at("loss"));
      ++checked;
    }
  }
  return checked;
}

nlohmann::json tensorboard_config() {
  nlohmann::json c = tiny_config("lm");  // two MoE layers
  c["train"].update({{"steps", 4}, {"eval_every", 2}, {"eval_batches", 1}});
  c["data"]["val_fraction"] = 0.1;
  return c;
}

// tensorboard_config() with telemetry.tensorboard, run in run_dir.
ProcessResult run_with_tensorboard(const TempDir& dir, const std::string& run_dir) {
  return run_moe_train({"run", "--config", write_config(dir, "c.json", tensorboard_config()),
                        "--run-dir", run_dir, "--set", "telemetry.tensorboard=true"});
}

TEST(TensorBoardRun, ScalarsMatchMetricsJsonl) {
  TempDir dir;
  const std::string run_dir = dir.file("run");
  const auto r = run_with_tensorboard(dir, run_dir);
  ASSERT_EQ(r.exit_status, 0) << r.err;

  const auto files = event_files(run_dir + "/tensorboard");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(std::regex_match(std::filesystem::path(files[0]).filename().string(),
                               std::regex(R"(events\.out\.tfevents\.\d{10}\.[^/]+)")))
      << files[0];
  const auto events = read_events(files[0]);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  for (size_t i = 1; i < events.size(); ++i) {
    EXPECT_TRUE(events[i].has_summary()) << "record " << i;
    EXPECT_GE(events[i].wall_time(), events[0].wall_time()) << "record " << i;
  }

  const auto metrics = events_of(read_file(run_dir + "/metrics.jsonl"));
  ASSERT_EQ(events_of_type(metrics, "step").size(), 4u);
  ASSERT_EQ(events_of_type(metrics, "expert_load").size(), 8u);  // 2 layers x 4 steps
  ASSERT_FALSE(events_of_type(metrics, "eval").empty());
  const Scalars scalars = scalars_of(events);
  const size_t checked = expect_matches_metrics(scalars, metrics);
  EXPECT_GE(checked, 4u * 8 + 8u * 7 + 2);
  EXPECT_TRUE(scalars.count("balance/layer1/cv"));
  EXPECT_TRUE(scalars.count("phases/gate_ms"));
}

// The same files read by the real tensorboard package (its EventAccumulator, as TensorBoard's
// scalar dashboard reads them): every metric at every step, as metrics.jsonl has it.
TEST(TensorBoardRun, TheTensorboardPackageReadsTheScalars) {
  TempDir dir;
  const std::string run_dir = dir.file("run");
  const auto r = run_with_tensorboard(dir, run_dir);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const auto read =
      run_program(MOE_TEST_PYTHON, {MOE_TENSORBOARD_SCALARS, run_dir + "/tensorboard"});
  ASSERT_EQ(read.exit_status, 0) << read.err;
  Scalars scalars;
  const auto read_back = nlohmann::json::parse(read.out);
  for (const auto& [tag, values] : read_back.items()) {
    for (const auto& v : values) scalars[tag][v.at(0).get<int64_t>()] = v.at(1).get<float>();
  }
  const auto metrics = events_of(read_file(run_dir + "/metrics.jsonl"));
  EXPECT_GE(expect_matches_metrics(scalars, metrics), 4u * 8 + 8u * 7 + 2);
  EXPECT_EQ(scalars.at("train/loss").size(), 4u);
}

TEST(TensorBoardRun, OffByDefault) {
  TempDir dir;
  const std::string run_dir = dir.file("run");
  auto r = run_moe_train({"run", "--config", write_config(dir, "c.json", tiny_config("helloworld")),
                          "--run-dir", run_dir});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(run_dir + "/tensorboard"));
}

TEST(TensorBoardRun, ResumeAddsAnEventsFile) {
  TempDir dir;
  nlohmann::json config = tiny_config("helloworld");
  config["train"].update({{"steps", 3}, {"checkpoint_every", 3}});
  config["telemetry"]["tensorboard"] = true;
  const std::string run_dir = dir.file("run");
  auto first =
      run_moe_train({"run", "--config", write_config(dir, "c.json", config), "--run-dir", run_dir});
  ASSERT_EQ(first.exit_status, 0) << first.err;
  auto resumed = run_moe_train({"run", "--resume", run_dir, "--set", "train.steps=5"});
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;

  const auto files = event_files(run_dir + "/tensorboard");
  ASSERT_EQ(files.size(), 2u);
  const auto metrics = events_of(read_file(run_dir + "/metrics.jsonl"));
  ASSERT_EQ(events_of_type(metrics, "step").size(), 5u);
  // Each file holds its own process's steps; together, the whole run.
  std::vector<std::set<int64_t>> steps_per_file;
  Scalars all;
  for (const auto& f : files) {
    const auto events = read_events(f);
    EXPECT_EQ(events.at(0).file_version(), "brain.Event:2") << f;
    const Scalars scalars = scalars_of(events);
    std::set<int64_t> steps;
    for (const auto& step_value : scalars.at("train/loss")) steps.insert(step_value.first);
    steps_per_file.push_back(steps);
    for (const auto& [tag, values] : scalars) all[tag].insert(values.begin(), values.end());
  }
  std::sort(steps_per_file.begin(), steps_per_file.end());
  EXPECT_EQ(steps_per_file[0], (std::set<int64_t>{1, 2, 3}));
  EXPECT_EQ(steps_per_file[1], (std::set<int64_t>{4, 5}));
  expect_matches_metrics(all, metrics);
}

}  // namespace
}  // namespace moe::test

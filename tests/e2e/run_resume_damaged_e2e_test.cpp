// moe-train run --resume from a checkpoint that is damaged or does not fit the config: exit
// status 2, the file named on stderr and in run_end, and the run directory left as it was (a
// --set that does not fit does not replace config.json).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_fixtures.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

// A finished 4-step run with checkpoints at steps 2 and 4; returns its directory.
std::string run_with_checkpoints(const TempDir& dir) {
  nlohmann::json c = tiny_config("helloworld");
  c["train"].update({{"steps", 4}, {"checkpoint_every", 2}, {"optimizer", "adamw"}});
  const std::string run = dir.file("run");
  auto r = run_moe_train({"run", "--config", write_config(dir, "c.json", c), "--run-dir", run});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(fs::exists(run + "/checkpoints/step-4/model.safetensors"));
  return run;
}

// Exit 2 with `file` named on stderr and in a "failed" run_end.
void expect_refused(const ProcessResult& r, const std::string& file) {
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  const auto events = events_of(r.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["status"], "failed");
  EXPECT_NE(events.back().value("error", "").find(file), std::string::npos) << events.back();
  EXPECT_TRUE(step_losses(events).empty()) << "no step may run from a damaged checkpoint";
}

TEST(RunResumeDamaged, TruncatedWeightsNameTheFile) {
  TempDir dir;
  const std::string run = run_with_checkpoints(dir);
  const std::string weights = run + "/checkpoints/step-4/model.safetensors";
  fs::resize_file(weights, fs::file_size(weights) / 2);
  expect_refused(run_moe_train({"run", "--resume", run, "--set", "train.steps=6"}), weights);
}

TEST(RunResumeDamaged, GarbageOptimizerStateNamesTheFile) {
  TempDir dir;
  const std::string run = run_with_checkpoints(dir);
  const std::string optimizer = run + "/checkpoints/step-4/optimizer.safetensors";
  std::ofstream(optimizer, std::ios::trunc) << "this is not a safetensors file";
  expect_refused(run_moe_train({"run", "--resume", run, "--set", "train.steps=6"}), optimizer);
}

TEST(RunResumeDamaged, StateWithoutTheDataPositionNamesTheFile) {
  TempDir dir;
  const std::string run = run_with_checkpoints(dir);
  const std::string state = run + "/checkpoints/step-4/state.json";
  std::ofstream(state, std::ios::trunc) << "{\"step\": 4}";  // still picked: the step matches
  auto r = run_moe_train({"run", "--resume", run, "--set", "train.steps=6"});
  expect_refused(r, state);
  EXPECT_NE(r.err.find("data_position"), std::string::npos) << r.err;
}

TEST(RunResumeDamaged, CheckpointOfAnotherShapeNamesTheFileAndKeepsTheConfig) {
  TempDir dir;
  const std::string run = run_with_checkpoints(dir);
  const std::string config_before = read_file(run + "/config.json");
  auto r = run_moe_train({"run", "--resume", run, "--set", "moe.hidden=48"});
  expect_refused(r, run + "/checkpoints/step-4/model.safetensors");
  EXPECT_NE(r.err.find("batched_fc1_w"), std::string::npos) << r.err;  // and the tensor
  EXPECT_EQ(read_file(run + "/config.json"), config_before);
  // The run can still be resumed as it was.
  auto again = run_moe_train({"run", "--resume", run, "--set", "train.steps=6"});
  EXPECT_EQ(again.exit_status, 0) << again.err;
  EXPECT_EQ(step_losses(events_of(again.out)).begin()->first, 5);
}

TEST(RunResumeDamaged, ConfigNumberOutOfRangeNamesFileAndKey) {
  TempDir dir;
  const std::string run = run_with_checkpoints(dir);
  std::string config = read_file(run + "/config.json");
  const std::string key = "\"capacity_factor\": ";
  const size_t at = config.find(key) + key.size();
  config.replace(at, config.find_first_of(",\n", at) - at, "1e400");
  std::ofstream(run + "/config.json", std::ios::trunc) << config;
  auto r = run_moe_train({"run", "--resume", run});
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find(run + "/config.json: /moe/capacity_factor: number 1e400 is out of range"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace moe::test

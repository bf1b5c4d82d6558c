// moe-train run is never lost: kill -9 and resume gives exactly the losses of an uninterrupted
// run; SIGINT/SIGTERM stop with a checkpoint and run_end "cancelled".
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "run_fixtures.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

// Everything random on: gate noise, bias balancing, AdamW with warm-up and cosine decay.
nlohmann::json resumable_config(int64_t steps) {
  nlohmann::json c = tiny_config("lm");
  c["moe"]["gate_noise"] = 1.0;
  c["moe"]["bias_balancing"] = {{"enabled", true}, {"rate", 0.01}};
  c["train"].update({{"steps", steps},
                     {"optimizer", "adamw"},
                     {"schedule", "cosine"},
                     {"warmup_steps", 5},
                     {"checkpoint_every", 10},
                     {"clip_grad_norm", 1.0}});
  return c;
}

TEST(RunResume, KilledRunResumesWithExactlyTheSameLosses) {
  TempDir dir;
  const auto config = write_config(dir, "c.json", resumable_config(300));
  auto a = run_moe_train({"run", "--config", config, "--run-dir", dir.file("a")});
  ASSERT_EQ(a.exit_status, 0) << a.err;
  const auto uninterrupted = step_losses(events_of(a.out));

  const std::string b = dir.file("b");
  {
    MoeTrainProcess victim({"run", "--config", config, "--run-dir", b});
    ASSERT_TRUE(wait_for_event(b + "/metrics.jsonl", "checkpoint", 20));
    victim.signal(SIGKILL);
    EXPECT_EQ(victim.wait().exit_status, 128 + SIGKILL);
  }
  ASSERT_EQ(read_file(b + "/metrics.jsonl").find("run_end"), std::string::npos)
      << "the run finished before it could be killed";
  // Leftovers of an interrupted save are never picked.
  fs::create_directories(b + "/checkpoints/.step-990.tmp-1");
  fs::create_directories(b + "/checkpoints/step-980");
  std::ofstream(b + "/checkpoints/step-980/model.safetensors") << "half";

  auto resumed = run_moe_train({"run", "--resume", b});
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  auto events = events_of(resumed.out);
  EXPECT_EQ(events.front()["type"], "run_start");
  EXPECT_EQ(events.back()["status"], "completed");
  const auto after = step_losses(events);
  ASSERT_FALSE(after.empty());
  EXPECT_GE(after.begin()->first, 21);
  EXPECT_EQ(after.rbegin()->first, 300);
  for (const auto& [step, loss] : after) {
    EXPECT_EQ(loss, uninterrupted.at(step)) << "step " << step;  // bit for bit
  }
}

void expect_cancelled_with_checkpoint(int sig) {
  TempDir dir;
  nlohmann::json c = resumable_config(1000000);
  c["train"]["checkpoint_every"] = 0;  // the signal alone makes the checkpoint
  const std::string run = dir.file("run");
  MoeTrainProcess p({"run", "--config", write_config(dir, "c.json", c), "--run-dir", run});
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 3));
  p.signal(sig);
  auto r = p.wait();
  EXPECT_EQ(r.exit_status, 128 + sig) << r.err;
  auto events = events_of(r.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["status"], "cancelled");
  const int64_t steps = events.back()["steps"];
  auto checkpoints = events_of_type(events, "checkpoint");
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_EQ(checkpoints[0]["step"], steps);
  EXPECT_TRUE(fs::exists(run + "/checkpoints/step-" + std::to_string(steps) + "/state.json"));

  // And it continues from there.
  auto resumed =
      run_moe_train({"run", "--resume", run, "--set", "train.steps=" + std::to_string(steps + 2)});
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  auto losses = step_losses(events_of(resumed.out));
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses.begin()->first, steps + 1);
}

TEST(RunResume, SigintLeavesACheckpointAndCancelled) {
  expect_cancelled_with_checkpoint(SIGINT);
}

TEST(RunResume, SigtermLeavesACheckpointAndCancelled) {
  expect_cancelled_with_checkpoint(SIGTERM);
}

TEST(RunResume, ResumeWithoutCheckpointIsBadInput) {
  TempDir dir;
  nlohmann::json c = tiny_config("helloworld");
  const std::string run = dir.file("run");
  ASSERT_EQ(run_moe_train({"run", "--config", write_config(dir, "c.json", c), "--run-dir", run})
                .exit_status,
            0);
  auto r = run_moe_train({"run", "--resume", run});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("no complete checkpoint"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace moe::test

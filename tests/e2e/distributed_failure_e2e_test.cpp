// Multi-rank runs that are stopped: a rank killed mid-run, a checkpoint rank 0 cannot write,
// SIGINT and SIGHUP to the launcher, and a run checkpointed on 4 ranks resumed on 2 and on 1.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <fstream>

#include "distributed_fixtures.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

nlohmann::json long_run(int ranks) {
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4}, {"top_k", 2}, {"hidden", 24}};
  c["train"].update({{"steps", 1000000}, {"batch_size", 8}});
  c["parallel"] = {{"nproc", ranks}, {"timeout_s", 30}};
  return c;
}

// A long two-rank run in dir/run under moe-train launch.
std::unique_ptr<MoeTrainProcess> start_long_run(const TempDir& dir,
                                                const nlohmann::json& config = long_run(2)) {
  return std::make_unique<MoeTrainProcess>(launch_args(
      2, {"run", "--config", write_config(dir, "c.json", config), "--run-dir", dir.file("run")}));
}

bool alive(int pid) {
  return pid > 0 && kill(pid, 0) == 0;
}

TEST(DistributedFailure, KilledRankStopsTheRunAndIsNamed) {
  TempDir dir;
  const std::string run = dir.file("run");
  const auto launcher = start_long_run(dir);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 3));
  const int rank0 = logged_pid(read_file(run + "/stderr.log"));
  const int rank1 = logged_pid(read_file(run + "/stderr.rank1.log"));
  ASSERT_GT(rank0, 0);
  ASSERT_GT(rank1, 0);
  ASSERT_EQ(kill(rank1, SIGKILL), 0);

  const auto result = launcher->wait();
  EXPECT_EQ(result.exit_status, 128 + SIGKILL) << result.err;  // the failing rank's status
  EXPECT_NE(result.err.find("rank 1"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("rank 1 stopped responding"), std::string::npos) << result.err;
  EXPECT_FALSE(alive(rank0));
  EXPECT_FALSE(alive(rank1));
  const auto events = events_of(result.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["status"], "failed");
}

// Only rank 0 writes checkpoints: when it cannot, every rank stops at once with rank 0's error,
// instead of waiting out parallel.timeout_s in the next collective.
TEST(DistributedFailure, ACheckpointRankZeroCannotWriteStopsEveryRankAtOnce) {
  TempDir dir;
  const std::string run = dir.file("run");
  auto config = long_run(2);
  config["parallel"]["timeout_s"] = 300;
  config["train"]["checkpoint_every"] = 5;
  const auto launcher = start_long_run(dir, config);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 1));
  // A file where the checkpoints go: the next save fails on rank 0 alone.
  fs::remove_all(run + "/checkpoints");
  std::ofstream(run + "/checkpoints") << "not a directory";
  const auto start = std::chrono::steady_clock::now();
  const auto result = launcher->wait(std::chrono::seconds(120));
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 60) << "the ranks waited for the time-out";
  EXPECT_EQ(result.exit_status, 1) << result.err;
  const std::string rank1 = read_file(run + "/stderr.rank1.log");
  EXPECT_NE(rank1.find("rank 0 failed while writing the checkpoint of step 5"), std::string::npos)
      << rank1;
  const auto events = events_of(result.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["status"], "failed");
  EXPECT_NE(events.back()["error"].get<std::string>().find("checkpoints"), std::string::npos)
      << events.back();
}

TEST(DistributedFailure, SigintStopsEveryRankAtOneStepWithOneCheckpoint) {
  TempDir dir;
  const std::string run = dir.file("run");
  auto config = long_run(2);
  config["train"]["lr"] = 0.01;
  const auto launcher = start_long_run(dir, config);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 3));
  launcher->signal(SIGINT);
  const auto result = launcher->wait();
  EXPECT_EQ(result.exit_status, 128 + SIGINT) << result.err;
  const auto events = events_of(result.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["status"], "cancelled");
  const int64_t steps = events.back()["steps"];
  const auto checkpoints = events_of_type(events, "checkpoint");
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_EQ(checkpoints[0]["step"], steps);
  // Rank 1 stopped after the same step.
  const std::string rank1 = read_file(run + "/stderr.rank1.log");
  EXPECT_NE(rank1.find("after step " + std::to_string(steps)), std::string::npos) << rank1;

  const std::string more = "train.steps=" + std::to_string(steps + 2);
  auto resumed = run_moe_train(launch_args(2, {"run", "--resume", run, "--set", more}));
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  const auto losses = step_losses(events_of(resumed.out));
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses.begin()->first, steps + 1);
}

// A dropped SSH session sends SIGHUP: the run stops as for Ctrl-C, with a checkpoint.
TEST(DistributedFailure, SighupStopsTheRunWithACheckpoint) {
  TempDir dir;
  const std::string run = dir.file("run");
  const auto launcher = start_long_run(dir);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 2));
  launcher->signal(SIGHUP);
  const auto result = launcher->wait(std::chrono::seconds(120));
  EXPECT_EQ(result.exit_status, 128 + SIGHUP) << result.err;
  const auto events = events_of(result.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["status"], "cancelled");
  const auto checkpoints = events_of_type(events, "checkpoint");
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_EQ(checkpoints[0]["step"], events.back()["steps"]);
}

TEST(DistributedFailure, CheckpointOnFourRanksResumesOnTwoAndOnOne) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["moe"].update({{"experts", 4},
                   {"fp32_gate", false},
                   {"gate_noise", 0.5},
                   {"bias_balancing", {{"enabled", true}, {"rate", 0.01}}}});
  c["train"].update({{"steps", 6},
                     {"dtype", "float64"},
                     {"optimizer", "adamw"},
                     {"checkpoint_every", 3},
                     {"keep_checkpoints", 5}});
  const auto uninterrupted = run_on_ranks(dir, c, 1, "one");

  c["train"]["steps"] = 3;
  const auto four = run_on_ranks(dir, c, 4, "four");
  ASSERT_TRUE(fs::exists(four.dir + "/checkpoints/step-3/model.safetensors"));
  for (int ranks : {2, 1}) {
    SCOPED_TRACE("resumed on " + std::to_string(ranks));
    const std::string copy = dir.file("resumed" + std::to_string(ranks));
    fs::copy(four.dir, copy, fs::copy_options::recursive);
    const std::vector<std::string> args{"run",
                                        "--resume",
                                        copy,
                                        "--set",
                                        "train.steps=6",
                                        "--set",
                                        "parallel.nproc=" + std::to_string(ranks)};
    auto resumed = run_moe_train(ranks == 1 ? args : launch_args(ranks, args));
    ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
    RankRun rest;
    rest.events = events_of(resumed.out);
    const auto losses = step_losses(rest.events);
    ASSERT_EQ(losses.size(), 3u);
    const auto expected = step_losses(uninterrupted.events);
    for (const auto& [step, loss] : losses) {
      EXPECT_NEAR(loss, expected.at(step), 1e-9 * std::max(1.0, std::fabs(loss))) << step;
    }
  }
}

}  // namespace
}  // namespace moe::test

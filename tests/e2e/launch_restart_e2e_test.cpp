// moe-train launch --max-restarts: a rank killed twice; every rank is started again from the last
// checkpoint, the run's telemetry shows each restart, and it ends with the losses of a run that
// was never interrupted.
#include <gtest/gtest.h>

#include <signal.h>

#include <regex>

#include "distributed_fixtures.h"

namespace moe::test {
namespace {

// The pid the newest start of a rank logged ("rank 1 of 2 on host (pid 1234)"), or -1.
int newest_logged_pid(const std::string& log) {
  static const std::regex pid(R"(rank \d+ of \d+ on .* \(pid (\d+)\))");
  int found = -1;
  for (std::sregex_iterator it(log.begin(), log.end(), pid), end; it != end; ++it)
    found = std::stoi((*it)[1]);
  return found;
}

// Waits for a start of rank 1 other than `previous` and returns its pid (-1 after 60 s).
int next_rank1_pid(const std::string& run, int previous) {
  for (int i = 0; i < 3000; ++i) {
    const int pid = newest_logged_pid(read_file(run + "/stderr.rank1.log"));
    if (pid > 0 && pid != previous) return pid;
    usleep(20000);
  }
  return -1;
}

TEST(LaunchRestart, ARankKilledTwiceRestartsFromTheCheckpointAndTrainsAlike) {
  TempDir dir;
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4}, {"top_k", 2}, {"hidden", 24}, {"fp32_gate", false}};
  c["train"].update({{"steps", 1500},
                     {"dtype", "float64"},
                     {"lr", 0.01},
                     {"checkpoint_every", 100},
                     {"keep_checkpoints", 2}});
  c["telemetry"] = {{"every", 10}};
  const auto uninterrupted = run_on_ranks(dir, c, 2, "uninterrupted");

  c["parallel"] = {{"nproc", 2}, {"timeout_s", 30}};
  const std::string run = dir.file("run");
  std::vector<std::string> args{"launch",
                                "--nproc-per-node",
                                "2",
                                "--max-restarts",
                                "3",
                                "--grace-s",
                                "5",
                                "--",
                                "run",
                                "--config",
                                write_config(dir, "c.json", c),
                                "--run-dir",
                                run};
  MoeTrainProcess launcher(args);
  int pid = next_rank1_pid(run, -1);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 250));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  pid = next_rank1_pid(run, pid);
  ASSERT_GT(pid, 0) << launcher.out_so_far();
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 900));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  const auto result = launcher.wait(std::chrono::seconds(300));
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_NE(result.err.find("restarting every rank from the last checkpoint (restart 1 of 3)"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("(restart 2 of 3)"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("(restart 3 of 3)"), std::string::npos) << result.err;

  // metrics.jsonl holds all three starts; the later two say where they went on from.
  const auto events = events_of(read_file(run + "/metrics.jsonl"));
  const auto starts = events_of_type(events, "run_start");
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_FALSE(starts[0].contains("restart"));
  EXPECT_FALSE(starts[0].contains("resumed_step"));
  for (int k : {1, 2}) {
    EXPECT_EQ(starts[k]["restart"], k);
    ASSERT_TRUE(starts[k].contains("resumed_step")) << starts[k];
    EXPECT_EQ(starts[k]["resumed_step"].get<int64_t>() % 100, 0);
  }
  EXPECT_GE(starts[1]["resumed_step"].get<int64_t>(), 200);
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["status"], "completed");

  const auto expected = step_losses(uninterrupted.events), losses = step_losses(events);
  ASSERT_EQ(losses.size(), expected.size());
  for (const auto& [step, loss] : expected)
    EXPECT_NEAR(losses.at(step), loss, 1e-9 * std::max(1.0, std::fabs(loss))) << step;
}

TEST(LaunchRestart, WithoutRestartsAFailureEndsTheLaunch) {
  TempDir dir;
  nlohmann::json c = tiny_config("helloworld");
  c["train"]["steps"] = 1000000;
  c["parallel"] = {{"nproc", 2}, {"timeout_s", 30}};
  const std::string run = dir.file("run");
  MoeTrainProcess launcher(
      launch_args(2, {"run", "--config", write_config(dir, "c.json", c), "--run-dir", run}));
  const int pid = next_rank1_pid(run, -1);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 2));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  const auto result = launcher.wait(std::chrono::seconds(120));
  EXPECT_EQ(result.exit_status, 128 + SIGKILL) << result.err;
  EXPECT_EQ(result.err.find("restarting"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace moe::test

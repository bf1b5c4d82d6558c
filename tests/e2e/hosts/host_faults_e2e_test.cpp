// Faults that a cluster produces, on two test hosts of one rank each: a link cut mid-step, 30 %
// packet loss, a host's processes killed, rank 0's host gone with its rendezvous store, a node
// that starts late. Each run ends with an error naming the rank or host within parallel.timeout_s
// plus the launcher's grace, leaves no process on any host, and its last checkpoint resumes.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <thread>

#include "multi_host.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

#define SKIP_WITHOUT_HOSTS() \
  if (!TestHosts::can_make_hosts()) GTEST_SKIP() << "network namespaces need root"

constexpr double kTimeoutS = 10, kGraceS = 5;
// What ending "within the time-out plus the grace" may take beyond them: the diagnosis of the
// silent ranks (2 s), process exits, a loaded machine.
constexpr auto kSlack = seconds(20);
constexpr auto kBound = seconds(static_cast<int>(kTimeoutS + kGraceS)) + kSlack;

nlohmann::json long_run(int64_t steps = 1000000) {
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4}, {"top_k", 2}, {"hidden", 24}, {"fp32_gate", false}};
  c["train"].update({{"steps", steps},
                     {"batch_size", 8},
                     {"dtype", "float64"},
                     {"checkpoint_every", 2},
                     {"keep_checkpoints", 2}});
  c["parallel"] = {{"nodes", 2}, {"nproc", 1}, {"timeout_s", kTimeoutS}};
  return c;
}

struct Fixture {
  TestHosts hosts;
  TempDir dir;
  std::string run = dir.file("run");
  std::string config;
  Fixture(const std::string& name, const nlohmann::json& c)
      : hosts(name, 2), config(write_config(dir, "c.json", c)) {}
  std::vector<std::string> run_args() const {
    return {"run", "--config", config, "--run-dir", run};
  }
};

void expect_no_process_left(const TestHosts& hosts) {
  for (int h = 0; h < 2; ++h)
    EXPECT_TRUE(hosts.processes(h).empty()) << "processes left on " << hosts.hostname(h);
}

// The newest checkpoint resumes as one process on host 0 and trains two more steps.
void expect_resumable(const Fixture& f) {
  ASSERT_TRUE(fs::exists(f.run + "/checkpoints")) << "no checkpoint was made";
  int64_t newest = 0;
  for (const auto& e : fs::directory_iterator(f.run + "/checkpoints")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("step-", 0) == 0) newest = std::max<int64_t>(newest, std::stoll(name.substr(5)));
  }
  ASSERT_GT(newest, 0);
  const auto resumed = run_program(
      f.hosts.runner(), f.hosts.on_host(0, {moe_train_path(), "run", "--resume", f.run, "--set",
                                            "train.steps=" + std::to_string(newest + 2), "--set",
                                            "parallel.nodes=1"}));
  ASSERT_EQ(resumed.exit_status, 0) << resumed.err;
  const auto losses = step_losses(events_of(resumed.out));
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses.begin()->first, newest + 1);
}

// Host 0's launcher after step 3 and a checkpoint, `fault` done then; both launchers' results.
std::vector<ProcessResult> fault_mid_run(Fixture& f, const std::function<void()>& fault,
                                         Clock::duration& took) {
  auto run = start_on_hosts(f.hosts, 2, 1, f.run_args(), kGraceS);
  EXPECT_TRUE(wait_for_event(f.run + "/metrics.jsonl", "checkpoint", 2));
  EXPECT_TRUE(wait_for_event(f.run + "/metrics.jsonl", "step", 3));
  const auto start = Clock::now();
  fault();
  auto results = run.wait(kBound + seconds(30));
  took = Clock::now() - start;
  return results;
}

std::string seconds_text(Clock::duration d) {
  return std::to_string(std::chrono::duration<double>(d).count()) + " s";
}

TEST(HostFaults, ALinkCutMidStepEndsEveryRankWithTheRankNamed) {
  SKIP_WITHOUT_HOSTS();
  Fixture f("moe-hf-link", long_run());
  Clock::duration took;
  const auto r = fault_mid_run(
      f, [&] { f.hosts.set_link(1, false); }, took);
  EXPECT_LE(took, kBound) << seconds_text(took);
  EXPECT_NE(r[0].exit_status, 0) << r[0].err;
  EXPECT_NE(r[0].exit_status, -1) << "host 0's launcher did not end\n" << r[0].err;
  EXPECT_NE(r[1].exit_status, -1) << "host 1's launcher did not end\n" << r[1].err;
  EXPECT_NE(r[1].exit_status, 0) << r[1].err;
  EXPECT_NE(
      r[0].err.find("rank 1 stopped responding (died or stalled), on host " + f.hosts.hostname(1)),
      std::string::npos)
      << r[0].err;
  EXPECT_NE(r[1].err.find("rank 0 is gone or out of reach (its rendezvous store at " +
                          f.hosts.address(0)),
            std::string::npos)
      << r[1].err;
  const auto events = events_of(r[0].out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["status"], "failed");
  expect_no_process_left(f.hosts);
  f.hosts.set_link(1, true);
  expect_resumable(f);
}

TEST(HostFaults, AHostsProcessesKilledEndTheRunWithTheRankNamed) {
  SKIP_WITHOUT_HOSTS();
  Fixture f("moe-hf-kill", long_run());
  Clock::duration took;
  const auto r = fault_mid_run(
      f,
      [&] {
        for (int pid : f.hosts.processes(1)) kill(pid, SIGKILL);
      },
      took);
  EXPECT_LE(took, kBound) << seconds_text(took);
  EXPECT_NE(r[0].exit_status, 0) << r[0].err;
  EXPECT_NE(r[0].exit_status, -1) << r[0].err;
  EXPECT_NE(r[0].err.find("on host " + f.hosts.hostname(1)), std::string::npos) << r[0].err;
  expect_no_process_left(f.hosts);
  expect_resumable(f);
}

TEST(HostFaults, RankZerosHostGoneEndsTheOtherHostsRanks) {
  SKIP_WITHOUT_HOSTS();
  Fixture f("moe-hf-master", long_run());
  Clock::duration took;
  const auto r = fault_mid_run(
      f,
      [&] {
        // The machine dies: its processes and its link, the rendezvous store with them.
        for (int pid : f.hosts.processes(0)) kill(pid, SIGKILL);
        f.hosts.set_link(0, false);
      },
      took);
  EXPECT_LE(took, kBound) << seconds_text(took);
  EXPECT_NE(r[1].exit_status, -1) << "host 1's launcher did not end\n" << r[1].err;
  EXPECT_NE(r[1].exit_status, 0) << r[1].err;
  EXPECT_NE(r[1].err.find("rank 0 is gone"), std::string::npos) << r[1].err;
  expect_no_process_left(f.hosts);
  f.hosts.set_link(0, true);
  expect_resumable(f);
}

TEST(HostFaults, ThirtyPercentPacketLossIsSlowerButTrainsAlike) {
  SKIP_WITHOUT_HOSTS();
  auto c = long_run(4);
  c["parallel"]["timeout_s"] = 120;
  Fixture f("moe-hf-loss", c);
  TempDir one_dir;
  c["parallel"] = {{"nproc", 1}};
  const auto one = run_on_ranks(one_dir, c, 1, "one");
  f.hosts.shape(1, {"loss", "30"});
  auto r = start_on_hosts(f.hosts, 2, 1, f.run_args(), kGraceS).wait(seconds(400));
  ASSERT_EQ(r[0].exit_status, 0) << r[0].err;
  ASSERT_EQ(r[1].exit_status, 0) << r[1].err;
  expect_same_training(one, as_rank_run(r[0], f.run));
}

TEST(HostFaults, ANodeThatStartsLateJoinsWithinTheTimeOut) {
  SKIP_WITHOUT_HOSTS();
  Fixture f("moe-hf-late", long_run(4));
  auto host0 = start_node(f.hosts, 0, 2, 1, f.run_args(), kGraceS);
  std::this_thread::sleep_for(seconds(3));
  auto host1 = start_node(f.hosts, 1, 2, 1, f.run_args(), kGraceS);
  const auto r0 = host0->wait(seconds(120)), r1 = host1->wait(seconds(60));
  EXPECT_EQ(r0.exit_status, 0) << r0.err;
  EXPECT_EQ(r1.exit_status, 0) << r1.err;
  EXPECT_EQ(step_losses(events_of(r0.out)).size(), 4u);
}

TEST(HostFaults, ANodeThatNeverStartsIsAClearErrorAfterTheTimeOut) {
  SKIP_WITHOUT_HOSTS();
  Fixture f("moe-hf-absent", long_run(4));
  const auto start = Clock::now();
  const auto r = start_node(f.hosts, 0, 2, 1, f.run_args(), kGraceS)->wait(kBound);
  const auto took = Clock::now() - start;
  EXPECT_EQ(r.exit_status, 1) << r.err;
  EXPECT_GE(took, seconds(static_cast<int>(kTimeoutS)) - seconds(1)) << seconds_text(took);
  EXPECT_LE(took, kBound) << seconds_text(took);
  EXPECT_NE(r.err.find("rendezvous of rank 0 of 2"), std::string::npos) << r.err;
  expect_no_process_left(f.hosts);
}

}  // namespace
}  // namespace moe::test

// The launcher's SIGINT, SIGTERM and SIGHUP: passed on to every rank once; a second one kills
// them, and so does the end of the grace; a rank that fails during the stop is the launch's status.
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>

#include "launcher_process.h"

namespace moe::launch::test {
namespace {

// Each rank records its pid after setting `trap` and loops until a signal ends it.
LaunchOptions looping_ranks(const TempDir& dir, const std::string& trap) {
  return shell_ranks(
      2, trap + "; echo $$ > " + dir.file("pid_") + "$RANK; while true; do sleep 0.05; done");
}

bool all_started(const TempDir& dir) {
  return pid_in(dir.file("pid_0")) > 0 && pid_in(dir.file("pid_1")) > 0;
}

void expect_no_rank_left(const TempDir& dir) {
  for (const char* name : {"pid_0", "pid_1"})
    EXPECT_FALSE(process_running(pid_in(dir.file(name)))) << name << " outlived the launcher";
}

class LauncherSignal : public ::testing::TestWithParam<int> {};

TEST_P(LauncherSignal, IsPassedToEveryRankAndRankZerosStatusIsTheLaunchs) {
  const int sig = GetParam();
  TempDir dir;
  // Rank 0 ends "cancelled" with 128 + sig, as moe-train run does; rank 1 with 0.
  const std::string trap = "trap 'echo > " + dir.file("got_") + "$RANK; [ $RANK = 0 ] && exit " +
                           std::to_string(128 + sig) + "; exit 0' " + sigabbrev_np(sig);
  LauncherProcess launcher(looping_ranks(dir, trap), dir);
  ASSERT_TRUE(wait_for([&] { return all_started(dir); }));
  launcher.signal(sig);
  LaunchResult r = launcher.wait();
  EXPECT_EQ(r.exit_status, 128 + sig) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("got_0")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("got_1")));
  EXPECT_EQ(r.err.find("exited with status"), std::string::npos) << "a stop is no failure\n"
                                                                 << r.err;
  expect_no_rank_left(dir);
}

INSTANTIATE_TEST_SUITE_P(IntTermAndHup, LauncherSignal, ::testing::Values(SIGINT, SIGTERM, SIGHUP));

TEST(LauncherSignalGrace, RanksThatIgnoreTheStopAreKilledWhenTheGraceIsOver) {
  TempDir dir;
  LaunchOptions o = looping_ranks(dir, "trap 'echo > " + dir.file("got_") + "$RANK' TERM");
  o.grace_s = 1;
  LauncherProcess launcher(o, dir);
  ASSERT_TRUE(wait_for([&] { return all_started(dir); }));
  launcher.signal(SIGTERM);
  LaunchResult r = launcher.wait(std::chrono::seconds(30));
  EXPECT_EQ(r.exit_status, 128 + SIGKILL) << r.err;
  EXPECT_NE(r.err.find("the grace of 1 s is over"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("was killed by signal 9 (SIGKILL) during the stop"), std::string::npos)
      << r.err;
  expect_no_rank_left(dir);
}

TEST(LauncherSignalFailure, ARankThatFailsDuringTheStopIsTheLaunchsStatus) {
  TempDir dir;
  // Rank 0 stops as asked (130); rank 1 fails with 3 while stopping, after rank 0 has ended.
  const std::string trap = "trap '[ $RANK = 0 ] && exit 130; sleep 0.5; exit 3' INT";
  LauncherProcess launcher(looping_ranks(dir, trap), dir);
  ASSERT_TRUE(wait_for([&] { return all_started(dir); }));
  launcher.signal(SIGINT);
  LaunchResult r = launcher.wait();
  EXPECT_EQ(r.exit_status, 3) << r.err;
  EXPECT_NE(r.err.find("rank 1 exited with status 3 during the stop"), std::string::npos) << r.err;
  expect_no_rank_left(dir);
}

TEST(LauncherSignalTwice, TheSecondSigintKillsEveryRank) {
  TempDir dir;
  // The ranks note the first SIGINT and go on.
  LauncherProcess launcher(looping_ranks(dir, "trap 'echo > " + dir.file("got_") + "$RANK' INT"),
                           dir);
  ASSERT_TRUE(wait_for([&] { return all_started(dir); }));
  launcher.signal(SIGINT);
  ASSERT_TRUE(wait_for([&] {
    return std::filesystem::exists(dir.file("got_0")) && std::filesystem::exists(dir.file("got_1"));
  }));
  launcher.signal(SIGINT);
  LaunchResult r = launcher.wait();
  EXPECT_EQ(r.exit_status, 128 + SIGKILL) << r.err;
  expect_no_rank_left(dir);
}

}  // namespace
}  // namespace moe::launch::test

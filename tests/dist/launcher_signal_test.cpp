// The launcher's SIGINT and SIGTERM: passed on to every rank once; a second one kills them.
#include <gtest/gtest.h>

#include <csignal>

#include "launcher_process.h"

namespace moe::dist::test {
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
                           std::to_string(128 + sig) + "; exit 0' " +
                           (sig == SIGINT ? "INT" : "TERM");
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

INSTANTIATE_TEST_SUITE_P(IntAndTerm, LauncherSignal, ::testing::Values(SIGINT, SIGTERM));

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
}  // namespace moe::dist::test

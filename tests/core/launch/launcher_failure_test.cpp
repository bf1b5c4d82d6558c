// The launcher when a rank fails: the others get SIGTERM, then SIGKILL after the grace; the
// launch exits with the first failing rank's status and leaves no rank behind.
#include <gtest/gtest.h>

#include "launcher_process.h"

namespace moe::launch::test {
namespace {

// Every rank records its pid (after setting `trap`); rank 1 waits until the others have done so,
// then runs `fail`; the others loop until a signal ends them.
std::string script(const TempDir& dir, int64_t ranks, const std::string& trap,
                   const std::string& fail) {
  std::string others_started = "true";
  for (int64_t r = 0; r < ranks; ++r)
    if (r != 1) others_started += " && [ -s " + dir.file("pid_" + std::to_string(r)) + " ]";
  return trap + "; echo $$ > " + dir.file("pid_") + "$RANK; if [ $RANK = 1 ]; then until " +
         others_started + "; do sleep 0.01; done; " + fail +
         "; fi; while true; do sleep 0.05; done";
}

void expect_no_rank_left(const TempDir& dir, int64_t ranks) {
  for (int64_t r = 0; r < ranks; ++r) {
    const pid_t pid = pid_in(dir.file("pid_" + std::to_string(r)));
    ASSERT_GT(pid, 0) << "rank " << r;
    EXPECT_FALSE(process_running(pid)) << "rank " << r << " outlived the launcher";
  }
}

TEST(LauncherFailure, OtherRanksGetSigtermAndTheFailingStatusIsTheLaunchs) {
  TempDir dir;
  // The others exit 143 on SIGTERM: failures too, but later ones; the first (3) is reported.
  const std::string trap = "trap 'echo > " + dir.file("term_") + "$RANK; exit 143' TERM";
  LaunchResult r = LauncherProcess(shell_ranks(3, script(dir, 3, trap, "exit 3")), dir).wait();
  EXPECT_EQ(r.exit_status, 3) << r.err;
  EXPECT_NE(r.err.find("moe-train launch: rank 1 exited with status 3"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("rank 0 exited"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("term_0")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("term_2")));
  expect_no_rank_left(dir, 3);
}

TEST(LauncherFailure, ARankKilledByASignalGivesOneHundredTwentyEightPlusIt) {
  TempDir dir;
  LaunchResult r =
      LauncherProcess(shell_ranks(2, script(dir, 2, "true", "kill -KILL $$")), dir).wait();
  EXPECT_EQ(r.exit_status, 128 + 9) << r.err;
  EXPECT_NE(r.err.find("moe-train launch: rank 1 was killed by signal 9 (SIGKILL)"),
            std::string::npos)
      << r.err;
  expect_no_rank_left(dir, 2);
}

TEST(LauncherFailure, ARankIgnoringSigtermIsKilledAfterTheGrace) {
  TempDir dir;
  LaunchOptions o = shell_ranks(2, script(dir, 2, "trap '' TERM", "exit 5"));
  o.grace_s = 0.2;
  // Without the SIGKILL, rank 0 would loop forever and the wait would run out.
  LaunchResult r = LauncherProcess(o, dir).wait();
  EXPECT_EQ(r.exit_status, 5) << r.err;
  expect_no_rank_left(dir, 2);
}

TEST(LauncherFailure, NoRankOutlivesAKilledLauncher) {
  TempDir dir;
  LauncherProcess launcher(
      shell_ranks(2, "echo $$ > " + dir.file("pid_") + "$RANK; exec sleep 600"), dir);
  ASSERT_TRUE(
      wait_for([&] { return pid_in(dir.file("pid_0")) > 0 && pid_in(dir.file("pid_1")) > 0; }));
  launcher.signal(SIGKILL);
  launcher.wait();
  for (const char* name : {"pid_0", "pid_1"}) {
    const pid_t pid = pid_in(dir.file(name));
    EXPECT_TRUE(wait_for([&] { return !process_running(pid); })) << name << " still runs";
  }
}

}  // namespace
}  // namespace moe::launch::test

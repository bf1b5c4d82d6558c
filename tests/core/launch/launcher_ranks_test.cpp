// moe-train launch's launcher with /bin/sh ranks: the variables each rank sees and where their
// output goes.
#include <gtest/gtest.h>

#include <cstdlib>

#include "launcher_process.h"

namespace moe::launch::test {
namespace {

// Each rank writes the launch's variables it sees, sorted, to env_<LOCAL_RANK>.
std::string env_script(const TempDir& dir) {
  return "env | grep -E '^(RANK|WORLD_SIZE|LOCAL_RANK|LOCAL_WORLD_SIZE|MASTER_ADDR|MASTER_PORT|"
         "MOE_LAUNCHED)=' | sort > " +
         dir.file("env_") + "$LOCAL_RANK";
}

TEST(LauncherRanks, EachRankGetsTorchrunsVariables) {
  TempDir dir;
  LaunchOptions o = shell_ranks(3, env_script(dir));
  o.nnodes = 2;
  o.node_rank = 1;
  o.master_addr = "10.1.2.3";
  o.master_port = 29555;
  setenv("RANK", "99", 1);  // a stale value in the launcher's own environment is replaced
  LaunchResult r = LauncherProcess(o, dir).wait();
  unsetenv("RANK");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  for (int local = 0; local < 3; ++local)
    EXPECT_EQ(read_file(dir.file("env_" + std::to_string(local))),
              "LOCAL_RANK=" + std::to_string(local) +
                  "\nLOCAL_WORLD_SIZE=3\nMASTER_ADDR=10.1.2.3\nMASTER_PORT=29555\n"
                  "MOE_LAUNCHED=1\nRANK=" +
                  std::to_string(3 + local) + "\nWORLD_SIZE=6\n");
}

TEST(LauncherRanks, OneNodePicksOneFreePortForAll) {
  TempDir dir;
  LaunchOptions o = shell_ranks(2, "echo $MASTER_PORT > " + dir.file("port_") + "$RANK");
  LaunchResult r = LauncherProcess(o, dir).wait();
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const std::string port = read_file(dir.file("port_0"));
  EXPECT_EQ(port, read_file(dir.file("port_1")));
  const int n = std::stoi(port);
  EXPECT_GE(n, 1);
  EXPECT_LE(n, 65535);
}

TEST(LauncherRanks, RankZeroOwnsStdoutAndOthersArePrefixedOnStderr) {
  TempDir dir;
  // Two lines in one write, a line on stderr, and a last line without its newline.
  LaunchOptions o = shell_ranks(
      3,
      "printf \"out $RANK a\\nout $RANK b\\n\"; echo \"err $RANK\" >&2; printf \"tail $RANK\" >&2");
  LaunchResult r = LauncherProcess(o, dir).wait();
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "out 0 a\nout 0 b\n");
  EXPECT_NE(r.err.find("err 0\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[rank 0]"), std::string::npos) << r.err;
  for (const std::string rank : {"1", "2"}) {
    const std::string p = "[rank " + rank + "] ";
    for (const std::string& line : {"out " + rank + " a\n", "out " + rank + " b\n",
                                    "err " + rank + "\n", "tail " + rank + "\n"})
      EXPECT_NE(r.err.find(p + line), std::string::npos) << p + line << " missing in\n" << r.err;
  }
}

TEST(LauncherRanks, AProgramThatCannotRunIsAFailedRank) {
  TempDir dir;
  LaunchOptions o = shell_ranks(2, "");
  o.executable = dir.file("no-such-program");
  LaunchResult r = LauncherProcess(o, dir).wait();
  EXPECT_EQ(r.exit_status, 127) << r.err;
  EXPECT_NE(r.err.find("cannot execute " + o.executable), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exited with status 127"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace moe::launch::test

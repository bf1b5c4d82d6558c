// moe-train launch through the real binary: its argument errors, and ranks running moe-train
// commands whose status becomes the launch's.
#include <gtest/gtest.h>

#include "process.h"

namespace moe::test {
namespace {

void expect_bad_arguments(const std::vector<std::string>& args, const std::string& message) {
  auto r = run_moe_train(args);
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << "expected '" << message << "' in\n" << r.err;
}

TEST(LaunchCommand, BadArgumentsAreExitTwoAndNameTheOption) {
  expect_bad_arguments({"launch", "--nproc-per-node", "0", "--", "run", "--config", "c.json"},
                       "--nproc-per-node 0: must be at least 1");
  expect_bad_arguments({"launch", "--nproc-per-node", "2"}, "nothing to run");
  expect_bad_arguments({"launch", "--nproc-per-node", "2", "--"}, "nothing to run");
  expect_bad_arguments({"launch", "--", "validate", "--config", "c.json"}, "--nproc-per-node");
  expect_bad_arguments(
      {"launch", "--nproc-per-node", "2", "--nnodes", "2", "--", "validate", "--config", "c.json"},
      "--master-port is required with --nnodes 2");
  expect_bad_arguments({"launch", "--nproc-per-node", "2", "--nnodes", "2", "--node-rank", "2",
                        "--master-port", "29500", "--", "validate", "--config", "c.json"},
                       "--node-rank 2");
  for (const char* port : {"0", "65536", "x"})
    expect_bad_arguments({"launch", "--nproc-per-node", "1", "--master-port", port, "--",
                          "validate", "--config", "c.json"},
                         "--master-port");
}

TEST(LaunchCommand, EveryRankRunsTheCommandAndOnlyRankZeroWritesStdout) {
  TempDir dir;
  auto path = dir.write("ok.json", R"({"name": "ok"})");
  auto r = run_moe_train({"launch", "--nproc-per-node", "2", "--", "validate", "--config", path});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, path + ": ok\n");
  EXPECT_NE(r.err.find("[rank 1] " + path + ": ok\n"), std::string::npos) << r.err;
}

TEST(LaunchCommand, TheRanksBadInputStatusIsTheLaunchs) {
  TempDir dir;
  auto path = dir.write("bad.json", R"({"moe": {"experts": 8, "top_k": 9}})");
  auto r = run_moe_train({"launch", "--nproc-per-node", "2", "--", "validate", "--config", path});
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find("exited with status 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.json: /moe/top_k"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace moe::test

// moe-train launch's option checks: each bad option is named with its value.
#include <gtest/gtest.h>

#include "launch/launcher.h"

namespace moe::launch {
namespace {

LaunchOptions good() {
  LaunchOptions o;
  o.executable = "/bin/true";
  o.args = {"run"};
  o.nproc_per_node = 2;
  return o;
}

// The message check_launch_options throws for o, "" when it accepts o.
std::string problem(const LaunchOptions& o) {
  try {
    check_launch_options(o);
    return "";
  } catch (const LaunchError& e) {
    return e.what();
  }
}

TEST(LaunchOptions, GoodOptionsPass) {
  EXPECT_EQ(problem(good()), "");
  LaunchOptions o = good();
  o.nnodes = 2;
  o.node_rank = 1;
  o.master_port = 29500;
  o.master_addr = "10.0.0.1";
  EXPECT_EQ(problem(o), "");
}

TEST(LaunchOptions, EachBadOptionIsNamed) {
  LaunchOptions o = good();
  o.nproc_per_node = 0;
  EXPECT_EQ(problem(o), "--nproc-per-node 0: must be at least 1");
  o = good();
  o.nnodes = 0;
  EXPECT_EQ(problem(o), "--nnodes 0: must be at least 1");
  o = good();
  o.nnodes = 2;
  o.master_port = 29500;
  o.node_rank = 2;
  EXPECT_EQ(problem(o), "--node-rank 2: must be from 0 to --nnodes - 1 = 1");
  o.node_rank = -1;
  EXPECT_EQ(problem(o), "--node-rank -1: must be from 0 to --nnodes - 1 = 1");
  o = good();
  o.master_port = 70000;
  EXPECT_EQ(problem(o), "--master-port 70000: must be a port from 1 to 65535");
  o = good();
  o.grace_s = -1;
  EXPECT_NE(problem(o).find("--grace-s -1"), std::string::npos) << problem(o);
  o = good();
  o.nproc_per_node = 1 << 20;
  o.nnodes = 1 << 20;
  o.master_port = 29500;
  EXPECT_NE(problem(o).find("--nproc-per-node 1048576: times --nnodes 1048576"), std::string::npos)
      << problem(o);
}

TEST(LaunchOptions, SeveralNodesNeedAPort) {
  LaunchOptions o = good();
  o.nnodes = 2;
  EXPECT_EQ(problem(o),
            "--master-port is required with --nnodes 2: every node must give its ranks the same "
            "rendezvous port");
}

TEST(LaunchOptions, SeveralNodesNeedTheMasterAddress) {
  LaunchOptions o = good();
  o.nnodes = 2;
  o.master_port = 29500;
  EXPECT_EQ(problem(o),
            "--master-addr is required with --nnodes 2: the host of node 0, which every node's "
            "ranks can reach");
}

TEST(LaunchOptions, NothingToRunIsAnError) {
  LaunchOptions o = good();
  o.args.clear();
  EXPECT_NE(problem(o).find("nothing to run"), std::string::npos) << problem(o);
  // launch() checks before it starts anything.
  EXPECT_THROW(launch(o), LaunchError);
}

}  // namespace
}  // namespace moe::launch

// moe-train bench --calibrate end to end: the profile it writes is read back with the planner's
// own parser (moe::plan::parse_profile), every figure plausible for a real machine; bad arguments
// exit 2 naming what is wrong, and failing collective ranks exit 1 with their output's tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "plan/hardware_profile.h"
#include "plan/step_counts.h"
#include "process.h"

namespace moe::test {
namespace {

bool has_rate(const plan::DeviceProfile& d, const plan::PhaseWork& p) {
  for (const auto& r : d.gemm_rates) {
    if (r.m == p.m && r.k == p.k && r.n == p.n && r.batch == p.batch && r.dtype == "float32")
      return true;
  }
  return false;
}

TEST(CalibrateCommand, QuickCalibrationWritesAProfileThePlannerReads) {
  TempDir dir;
  const auto path = dir.file("this-machine.json");
  auto r = run_moe_train({"bench", "--calibrate", "--quick", "--nproc", "2", "--json", path});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("profile written to " + path), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("collectives, 2 ranks [6/6] all_reduce_sum"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));

  const std::string text = read_file(path);
  EXPECT_NE(text.find("no datasheet peak"), std::string::npos) << text;
  const plan::HardwareProfile p = plan::parse_profile(text, path);
  EXPECT_EQ(p.name.rfind("this machine (", 0), 0u) << p.name;
  EXPECT_FALSE(p.device.name.empty());
  EXPECT_EQ(p.device.devices_per_node, 1);  // a CPU build: every local rank shares the CPU
  EXPECT_GT(p.device.memory_bytes, 1e8);
  EXPECT_EQ(p.device.gemm_efficiency, 1.0);

  ASSERT_FALSE(p.device.gemm_rates.empty());
  double best_float32 = 0;
  for (const auto& rate : p.device.gemm_rates) {
    EXPECT_GT(rate.m * rate.k * rate.n, 0);
    // In flops per second, not GFLOP/s: far above 1e3. Not a speed check: the smallest shape
    // read 6.5e7 while a build shared this machine's two cores.
    EXPECT_GT(rate.flops_per_s, 1e6) << rate.m << "x" << rate.k << "x" << rate.n << rate.dtype;
    EXPECT_LT(rate.flops_per_s, 1e14) << rate.m << "x" << rate.k << "x" << rate.n << rate.dtype;
    if (rate.dtype == "float32") best_float32 = std::max(best_float32, rate.flops_per_s);
  }
  EXPECT_EQ(p.device.peak_flops_float32, best_float32);
  EXPECT_GT(p.device.peak_flops_bfloat16, 0);
  EXPECT_GT(p.device.peak_flops_float64, 0);
  // The shapes the planner looks up for the default config, on one rank and on two.
  const protocol::RunConfig config;
  for (int64_t ranks : {1, 2}) {
    plan::Layout layout = plan::config_layout(config);
    layout.nproc_per_node = ranks;
    const auto counts = plan::count_step(config, layout);
    EXPECT_TRUE(has_rate(p.device, counts.experts)) << ranks << " ranks";
    EXPECT_TRUE(has_rate(p.device, counts.gate)) << ranks << " ranks";
  }

  EXPECT_GT(p.device.memory_bandwidth, 1e8);
  EXPECT_LT(p.device.memory_bandwidth, 1e12);
  EXPECT_GT(p.device.op_overhead_s, 0);
  EXPECT_LT(p.device.op_overhead_s, 1e-2);
  EXPECT_GT(p.device.runtime_bytes, 10e6);
  EXPECT_LT(p.device.runtime_bytes, 4e9);

  ASSERT_EQ(p.intra_node.size(), 1u);
  for (const plan::LinkProfile* link : {&p.intra_node.front(), &p.inter_node}) {
    EXPECT_EQ(link->ranks, 2);
    EXPECT_GT(link->all_to_all_latency_s, 0);
    EXPECT_LT(link->all_to_all_latency_s, 1);
    EXPECT_GT(link->all_reduce_latency_s, 0);
    EXPECT_LT(link->all_reduce_latency_s, 1);
    EXPECT_GT(link->all_to_all_bandwidth, 1e6);
    EXPECT_LT(link->all_to_all_bandwidth, 1e12);
    EXPECT_GT(link->all_reduce_bandwidth, 1e6);
    EXPECT_LT(link->all_reduce_bandwidth, 1e12);
  }
  EXPECT_EQ(p.intra_node.front().name, "loopback Gloo, 2 ranks");
  EXPECT_NE(p.inter_node.name.find("not measured"), std::string::npos) << p.inter_node.name;
}

// Bad arguments fail before any measuring, exit 2, name what is wrong and leave no file.
TEST(CalibrateCommand, BadArgumentsExitTwoNamingTheProblem) {
  TempDir dir;
  const auto path = dir.file("profile.json");
  const auto bad_config = dir.write("bad.json", R"({"moe": {"experts": 0}})");
  const auto not_a_link = dir.write("link.json", R"({"name": "x", "ranks": 2})");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--json", dir.file("missing/dir/profile.json")}, "--json " + dir.file("missing/dir")},
      {{"--nproc", "1", "--json", path}, "--nproc 1: the collectives need from 2 to 64"},
      {{"--nproc", "2", "--nproc", "65", "--json", path}, "--nproc 65"},
      {{"--config", bad_config, "--json", path}, bad_config + ": /moe/experts"},
      {{}, "needs --json FILE"},
      {{"--inter-node", dir.file("nowhere.json"), "--json", path},
       "--inter-node " + dir.file("nowhere.json") + ": cannot read it"},
      {{"--inter-node", not_a_link, "--json", path}, "--inter-node " + not_a_link},
      {{"--inter-node", bad_config, "--json", path}, "--inter-node " + bad_config},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"bench", "--calibrate", "--quick"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_moe_train(args);
    EXPECT_EQ(r.exit_status, 2) << c.message << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(path)) << c.message;
  }
  // One rank of the link's measurement needs a launcher's ranks and a file.
  auto alone = run_moe_train({"bench", "--calibrate-link", "--json", path});
  EXPECT_EQ(alone.exit_status, 2) << alone.err;
  EXPECT_NE(alone.err.find("runs as one of 2 or more ranks"), std::string::npos) << alone.err;
}

// Ranks whose collectives cannot start (Gloo told to use a network interface that does not
// exist): exit 1, with the ranks' own message in the error.
TEST(CalibrateCommand, FailingCollectiveRanksExitOneWithTheirOutput) {
  TempDir dir;
  const auto path = dir.file("profile.json");
  auto r = run_program("env", {"GLOO_SOCKET_IFNAME=moe-no-such-if0", moe_train_path(), "bench",
                               "--calibrate", "--quick", "--nproc", "2", "--json", path});
  EXPECT_EQ(r.exit_status, 1) << r.err;
  EXPECT_NE(r.err.find("the collectives on 2 local ranks failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("moe-no-such-if0"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace moe::test

// Runs across test hosts with their own addresses (network namespaces, test_hosts.sh): two hosts
// of two ranks train exactly as one process, each rank's Gloo transport on the address that
// routes to rank 0's host; the same under Slurm, srun over a node per host; and a checkpoint made
// over two hosts resumes on one.
#include <gtest/gtest.h>

#include <filesystem>

#include "../launchers/slurm_cluster.h"
#include "multi_host.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;
constexpr auto kRunLimit = std::chrono::seconds(240);

#define SKIP_WITHOUT_HOSTS() \
  if (!TestHosts::can_make_hosts()) GTEST_SKIP() << "network namespaces need root"

// The lm model, float64, two experts over four ranks (each sharded over two), r chosen by auto.
nlohmann::json lm_sharded() {
  nlohmann::json c = tiny_config("lm");
  c["moe"].update({{"experts", 2}, {"capacity_factor", 1.0}, {"fp32_gate", false}});
  c["train"].update({{"steps", 8}, {"dtype", "float64"}, {"optimizer", "adamw"}});
  return c;
}

nlohmann::json on_four_ranks(nlohmann::json c) {
  c["parallel"].update({{"nodes", 2}, {"nproc", 2}, {"adaptive_r", "auto"}, {"timeout_s", 60}});
  return c;
}

TEST(MultiHost, TwoHostsOfTwoRanksTrainAsOneProcess) {
  SKIP_WITHOUT_HOSTS();
  TestHosts hosts("moe-mh-train", 2);
  TempDir dir;
  auto c = lm_sharded();
  c["train"]["steps"] = 10;  // auto tries r = 0, 1, 2 for three steps each
  const auto one = run_on_ranks(dir, c, 1, "one");
  const std::string run = dir.file("hosts");
  const std::string config = write_config(dir, "hosts.json", on_four_ranks(c));
  auto results =
      start_on_hosts(hosts, 2, 2, {"run", "--config", config, "--run-dir", run}).wait(kRunLimit);
  ASSERT_EQ(results[0].exit_status, 0) << results[0].err;
  ASSERT_EQ(results[1].exit_status, 0) << results[1].err;
  const RankRun across = as_rank_run(results[0], run);
  expect_same_training(one, across);
  EXPECT_EQ(events_of_type(across.events, "run_start")[0]["world_size"], 4);
  ASSERT_EQ(events_of_type(across.events, "adaptive_r").size(), 1u);

  // Each rank says which address it gave Gloo: its own host's, the one on the route to host 0.
  const std::string rank0 = read_file(run + "/stderr.log");
  EXPECT_NE(rank0.find("Gloo transport on " + hosts.address(0)), std::string::npos) << rank0;
  for (int rank : {2, 3}) {
    const std::string log = read_file(run + "/stderr.rank" + std::to_string(rank) + ".log");
    EXPECT_NE(log.find("rank " + std::to_string(rank) + " of 4 on " + hosts.hostname(1)),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("Gloo transport on " + hosts.address(1) + " (the route to " +
                       hosts.address(0) + ")"),
              std::string::npos)
        << log;
  }
  // Host 1's launcher forwards its ranks' lines with their prefix; rank 0 speaks on host 0.
  EXPECT_NE(results[1].err.find("[rank 3] "), std::string::npos) << results[1].err;
  EXPECT_TRUE(events_of(results[1].out).empty()) << results[1].out;
}

// A node per host (slurmctld on host 0, a slurmd on each), srun from host 0: each rank finds rank
// 0 by the first node's name, as on a cluster.
TEST(MultiHost, SrunOverANodePerHostTrainsAsOneProcess) {
  SKIP_WITHOUT_HOSTS();
  TestHosts hosts("moe-mh-srun", 2);
  TempDir dir;
  auto c = lm_sharded();
  c["parallel"]["adaptive_r"] = 1;
  const auto one = run_on_ranks(dir, c, 1, "one");
  SlurmCluster cluster(dir.file("slurm"), hosts.name(), 2);
  ASSERT_TRUE(cluster.started()) << cluster.error();
  const std::string run = dir.file("srun");
  const std::string config = write_config(dir, "srun.json", on_four_ranks(c));
  MoeTrainProcess srun(hosts.runner(),
                       hosts.on_host(0, {"env", "SLURM_CONF=" + cluster.conf(), "srun", "-N", "2",
                                         "-n", "4", "--overcommit", moe_train_path(), "run",
                                         "--config", config, "--run-dir", run}));
  const auto result = srun.wait(kRunLimit);
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const RankRun across = as_rank_run(result, run);
  expect_same_training(one, across);
  EXPECT_EQ(events_of_type(across.events, "run_start")[0]["world_size"], 4);
  for (int rank : {2, 3})
    EXPECT_NE(result.err.find("rank " + std::to_string(rank) + " of 4 on " + hosts.hostname(1)),
              std::string::npos)
        << result.err;
  EXPECT_NE(result.err.find("Gloo transport on " + hosts.address(1)), std::string::npos)
      << result.err;
}

// The link between two hosts, measured by one rank on each (bench --calibrate-link), becomes the
// profile's inter_node (bench --calibrate --inter-node), which the planner reads.
TEST(MultiHost, TheLinkBetweenHostsIsCalibratedIntoTheProfile) {
  SKIP_WITHOUT_HOSTS();
  TestHosts hosts("moe-mh-link", 2);
  TempDir dir;
  const std::string link = dir.file("link.json");
  auto results =
      start_on_hosts(hosts, 2, 1, {"bench", "--calibrate-link", "--quick", "--json", link})
          .wait(kRunLimit);
  ASSERT_EQ(results[0].exit_status, 0) << results[0].err;
  ASSERT_EQ(results[1].exit_status, 0) << results[1].err;
  const auto measured = nlohmann::json::parse(read_file(link));
  EXPECT_EQ(measured["name"], "Gloo, 2 ranks on 2 nodes");
  EXPECT_EQ(measured["ranks"], 2);
  EXPECT_GT(measured["all_to_all_bandwidth"].get<double>(), 1e6);
  EXPECT_GT(measured["all_reduce_latency_s"].get<double>(), 0);

  const std::string profile = dir.file("profile.json");
  const auto calibrated = run_moe_train(
      {"bench", "--calibrate", "--quick", "--nproc", "2", "--inter-node", link, "--json", profile});
  ASSERT_EQ(calibrated.exit_status, 0) << calibrated.err;
  const std::string text = read_file(profile);
  EXPECT_NE(text.find("inter_node was measured across nodes"), std::string::npos) << text;
  const auto plan = run_moe_train({"plan", "--config", write_config(dir, "c.json", lm_sharded()),
                                   "--profile", profile, "--nodes", "2", "--nproc-per-node", "1"});
  ASSERT_EQ(plan.exit_status, 0) << plan.err;
  EXPECT_NE(plan.out.find("Gloo, 2 ranks on 2 nodes"), std::string::npos) << plan.out;
}

TEST(MultiHost, CheckpointOnTwoHostsResumesOnOne) {
  SKIP_WITHOUT_HOSTS();
  TestHosts hosts("moe-mh-resume", 2);
  TempDir dir;
  nlohmann::json c = lm_sharded();
  c["moe"].update({{"experts", 4}, {"gate_noise", 0.5}});
  c["train"].update({{"steps", 6}, {"checkpoint_every", 3}, {"keep_checkpoints", 5}});
  const auto uninterrupted = run_on_ranks(dir, c, 1, "one");

  c["train"]["steps"] = 3;
  const std::string run = dir.file("hosts");
  auto four = on_four_ranks(c);
  four["parallel"]["adaptive_r"] = 1;
  const std::string config = write_config(dir, "hosts.json", four);
  auto results =
      start_on_hosts(hosts, 2, 2, {"run", "--config", config, "--run-dir", run}).wait(kRunLimit);
  ASSERT_EQ(results[0].exit_status, 0) << results[0].err;
  ASSERT_EQ(results[1].exit_status, 0) << results[1].err;
  ASSERT_TRUE(fs::exists(run + "/checkpoints/step-3/model.safetensors"));

  // On host 0 alone, two ranks.
  MoeTrainProcess resumed(
      hosts.runner(),
      hosts.on_host(0, {moe_train_path(), "launch", "--nproc-per-node", "2", "--", "run",
                        "--resume", run, "--set", "train.steps=6", "--set", "parallel.nodes=1"}));
  const auto rest = resumed.wait(kRunLimit);
  ASSERT_EQ(rest.exit_status, 0) << rest.err;
  const auto losses = step_losses(events_of(rest.out));
  ASSERT_EQ(losses.size(), 3u);
  const auto expected = step_losses(uninterrupted.events);
  for (const auto& [step, loss] : losses)
    EXPECT_NEAR(loss, expected.at(step), 1e-9 * std::max(1.0, std::fabs(loss))) << step;
}

}  // namespace
}  // namespace moe::test

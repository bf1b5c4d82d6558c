// The same moe-train binary started by other launchers: torchrun, Open MPI's mpirun and Slurm's
// srun (on a one-node cluster the test starts itself, tests/e2e/launchers/slurm_cluster.sh). Each
// must read its rank from the launcher's variables and train exactly as `moe-train launch` and one
// process.
#include <gtest/gtest.h>

#include <unistd.h>

#include "distributed_fixtures.h"
#include "launch/launch_port.h"
#include "launchers/slurm_cluster.h"

namespace moe::test {
namespace {

nlohmann::json two_rank_config() {
  nlohmann::json c = tiny_config("helloworld");
  c["moe"] = {{"experts", 4}, {"top_k", 2}, {"hidden", 24}, {"fp32_gate", false}};
  c["train"].update({{"steps", 4}, {"dtype", "float64"}, {"lr", 0.05}});
  c["parallel"] = {{"nproc", 2}, {"timeout_s", 60}};
  return c;
}

RankRun as_run(const ProcessResult& r) {
  RankRun run;
  run.exit_status = r.exit_status;
  run.out = r.out;
  run.err = r.err;
  run.events = events_of(r.out);
  return run;
}

TEST(Launchers, MpirunTrainsAsOneProcess) {
  TempDir dir;
  const auto one = run_on_ranks(dir, two_rank_config(), 1, "one");
  const std::string config = write_config(dir, "c.json", two_rank_config());
  std::vector<std::string> args;
  if (geteuid() == 0) args.push_back("--allow-run-as-root");  // Open MPI refuses root otherwise
  const std::string port = std::to_string(launch::free_port_on("127.0.0.1"));
  const std::vector<std::string> rest{"--oversubscribe",
                                      "-np",
                                      "2",
                                      "-x",
                                      "MASTER_ADDR=127.0.0.1",
                                      "-x",
                                      "MASTER_PORT=" + port,
                                      moe_train_path(),
                                      "run",
                                      "--config",
                                      config,
                                      "--run-dir",
                                      dir.file("mpi")};
  args.insert(args.end(), rest.begin(), rest.end());
  const auto mpi = as_run(run_program("mpirun", args));
  ASSERT_EQ(mpi.exit_status, 0) << mpi.err;
  EXPECT_NE(mpi.err.find("rank 1 of 2"), std::string::npos) << mpi.err;
  expect_same_training(one, mpi);
}

// The real torchrun (from the torch environment install-deps made): its agent serves the
// rendezvous store at --master-port itself, and its ranks connect to it.
TEST(Launchers, TorchrunTrainsAsOneProcess) {
  TempDir dir;
  const auto one = run_on_ranks(dir, two_rank_config(), 1, "one");
  const std::string config = write_config(dir, "c.json", two_rank_config());
  const std::string port = std::to_string(launch::free_port_on("127.0.0.1"));
  const auto torchrun = as_run(run_program(
      MOE_TORCHRUN,
      {"--nproc-per-node", "2", "--master-addr", "127.0.0.1", "--master-port", port, "--no-python",
       moe_train_path(), "run", "--config", config, "--run-dir", dir.file("torchrun")}));
  ASSERT_EQ(torchrun.exit_status, 0) << torchrun.err;
  EXPECT_NE(torchrun.err.find("rank 1 of 2"), std::string::npos) << torchrun.err;
  expect_same_training(one, torchrun);
}

TEST(Launchers, SrunTrainsAsOneProcess) {
  TempDir dir;
  const auto one = run_on_ranks(dir, two_rank_config(), 1, "one");
  SlurmCluster cluster(dir.file("slurm"));
  ASSERT_TRUE(cluster.started()) << cluster.error();
  const std::string config = write_config(dir, "c.json", two_rank_config());
  // srun reads SLURM_CONF from its environment; env(1) sets it for srun alone.
  const auto slurm = as_run(run_program(
      "env", {"SLURM_CONF=" + cluster.conf(), "srun", "-n", "2", "--overcommit", moe_train_path(),
              "run", "--config", config, "--run-dir", dir.file("srun")}));
  ASSERT_EQ(slurm.exit_status, 0) << slurm.err;
  EXPECT_NE(slurm.err.find("rank 1 of 2"), std::string::npos) << slurm.err;
  expect_same_training(one, slurm);
}

}  // namespace
}  // namespace moe::test

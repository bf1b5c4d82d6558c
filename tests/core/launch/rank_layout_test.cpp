// The rank layout read from torchrun's, Open MPI's and Slurm's variables, and every bad value.
#include <gtest/gtest.h>

#include <map>

#include "launch/rank_layout.h"

namespace moe::launch {
namespace {

using Env = std::map<std::string, std::string>;

RankLayout layout(const Env& env) {
  return rank_layout_from_environment([&](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}

// The LayoutError's message for env, "" when env is accepted.
std::string problem(const Env& env) {
  try {
    layout(env);
    return "";
  } catch (const LayoutError& e) {
    return e.what();
  }
}

void expect_layout(const RankLayout& l, int64_t rank, int64_t world, int64_t local,
                   int64_t local_world, const std::string& addr, int port,
                   const std::string& source) {
  EXPECT_EQ(l.rank, rank);
  EXPECT_EQ(l.world_size, world);
  EXPECT_EQ(l.local_rank, local);
  EXPECT_EQ(l.local_world_size, local_world);
  EXPECT_EQ(l.master_addr, addr);
  EXPECT_EQ(l.master_port, port);
  EXPECT_EQ(l.source, source);
}

TEST(RankLayout, NoLauncherIsOneProcess) {
  expect_layout(layout({}), 0, 1, 0, 1, "127.0.0.1", 0, "single");
  // Half a launcher's variables, or empty ones, are not a launch.
  expect_layout(layout({{"RANK", "1"}, {"SLURM_PROCID", "0"}, {"WORLD_SIZE", ""}}), 0, 1, 0, 1,
                "127.0.0.1", 0, "single");
}

TEST(RankLayout, Torchrun) {
  expect_layout(layout({{"RANK", "5"},
                        {"WORLD_SIZE", "8"},
                        {"LOCAL_RANK", "1"},
                        {"LOCAL_WORLD_SIZE", "4"},
                        {"MASTER_ADDR", "node01"},
                        {"MASTER_PORT", "29500"}}),
                5, 8, 1, 4, "node01", 29500, "torchrun");
  // Without the local pair: one node. One rank needs no port.
  expect_layout(layout({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "1"}}), 1, 2, 1, 2,
                "127.0.0.1", 1, "torchrun");
  expect_layout(layout({{"RANK", "0"}, {"WORLD_SIZE", "1"}}), 0, 1, 0, 1, "127.0.0.1", 0,
                "torchrun");
}

// torchrun's agent serves the store at MASTER_PORT itself and says so: rank 0 must not start one.
TEST(RankLayout, TorchrunAgentStore) {
  const Env base{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "29500"}};
  EXPECT_FALSE(layout(base).agent_store);
  Env agent = base;
  agent["TORCHELASTIC_USE_AGENT_STORE"] = "True";
  EXPECT_TRUE(layout(agent).agent_store);
  agent["TORCHELASTIC_USE_AGENT_STORE"] = "False";
  EXPECT_FALSE(layout(agent).agent_store);
}

TEST(RankLayout, TorchrunComesFirst) {
  // torchrun started inside a Slurm job and an mpirun: its variables decide.
  expect_layout(layout({{"RANK", "1"},
                        {"WORLD_SIZE", "2"},
                        {"MASTER_PORT", "29500"},
                        {"SLURM_PROCID", "0"},
                        {"SLURM_NTASKS", "4"},
                        {"SLURM_LOCALID", "0"},
                        {"OMPI_COMM_WORLD_RANK", "0"},
                        {"OMPI_COMM_WORLD_SIZE", "3"}}),
                1, 2, 1, 2, "127.0.0.1", 29500, "torchrun");
}

TEST(RankLayout, OpenMpi) {
  const Env env{{"OMPI_COMM_WORLD_RANK", "3"},
                {"OMPI_COMM_WORLD_SIZE", "4"},
                {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                {"MASTER_ADDR", "10.0.0.1"},
                {"MASTER_PORT", "29501"},
                // mpirun in a Slurm batch script passes the script's variables on
                {"SLURM_PROCID", "0"},
                {"SLURM_NTASKS", "1"}};
  expect_layout(layout(env), 3, 4, 1, 2, "10.0.0.1", 29501, "openmpi");
}

TEST(RankLayout, OpenMpiNeedsTheMasterFromMpirun) {
  Env env{{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"MASTER_PORT", "29500"}};
  EXPECT_EQ(problem(env),
            "Open MPI started 2 ranks but MASTER_ADDR is not set: pass rank 0's host and a free "
            "port to every rank (mpirun -x MASTER_ADDR=host -x MASTER_PORT=port)");
  env.erase("MASTER_PORT");
  env["MASTER_ADDR"] = "h";
  EXPECT_NE(problem(env).find("but MASTER_PORT is not set"), std::string::npos) << problem(env);
  // One rank needs neither.
  expect_layout(layout({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "1"}}), 0, 1, 0, 1,
                "127.0.0.1", 0, "openmpi");
}

TEST(RankLayout, BadValuesNameTheVariableAndValue) {
  const Env base{{"RANK", "1"},        {"WORLD_SIZE", "4"},
                 {"LOCAL_RANK", "1"},  {"LOCAL_WORLD_SIZE", "2"},
                 {"MASTER_ADDR", "h"}, {"MASTER_PORT", "29500"}};
  EXPECT_EQ(problem(base), "");
  const std::tuple<const char*, const char*, const char*> cases[] = {
      {"RANK", "one", "RANK=one: not a whole number"},
      {"RANK", "1.5", "RANK=1.5: not a whole number"},
      {"RANK", "-", "RANK=-: not a whole number"},
      {"RANK", "-1", "RANK=-1: must not be negative"},
      {"RANK", "4", "RANK=4: must be less than WORLD_SIZE=4"},
      {"WORLD_SIZE", "0", "WORLD_SIZE=0: must be at least 1"},
      {"WORLD_SIZE", "4294967296", "WORLD_SIZE=4294967296: must be at most 2147483647"},
      {"WORLD_SIZE", "99999999999999999999",
       "WORLD_SIZE=99999999999999999999: must be at most 2147483647"},
      {"LOCAL_RANK", "2", "LOCAL_RANK=2: must be less than LOCAL_WORLD_SIZE=2"},
      {"LOCAL_WORLD_SIZE", "0", "LOCAL_WORLD_SIZE=0: must be at least 1"},
      {"LOCAL_WORLD_SIZE", "5", "LOCAL_WORLD_SIZE=5: must be at most WORLD_SIZE=4"},
      {"MASTER_PORT", "0", "MASTER_PORT=0: must be a port from 1 to 65535"},
      {"MASTER_PORT", "65536", "MASTER_PORT=65536: must be a port from 1 to 65535"},
      {"MASTER_PORT", "http", "MASTER_PORT=http: not a whole number"},
  };
  for (const auto& [name, value, message] : cases) {
    Env env = base;
    env[name] = value;
    EXPECT_EQ(problem(env), message) << name << "=" << value;
  }
  Env env = base;
  env.erase("MASTER_PORT");
  EXPECT_EQ(problem(env),
            "WORLD_SIZE=4: a run of several ranks needs MASTER_PORT (rank 0's rendezvous port), "
            "which is not set");
  // Open MPI's names in its messages.
  EXPECT_EQ(problem({{"OMPI_COMM_WORLD_RANK", "2"},
                     {"OMPI_COMM_WORLD_SIZE", "2"},
                     {"MASTER_ADDR", "h"},
                     {"MASTER_PORT", "1"}}),
            "OMPI_COMM_WORLD_RANK=2: must be less than OMPI_COMM_WORLD_SIZE=2");
}

TEST(RankLayout, ALayoutErrorIsARuntimeError) {
  EXPECT_THROW(layout({{"RANK", "x"}, {"WORLD_SIZE", "2"}}), std::runtime_error);
}

}  // namespace
}  // namespace moe::launch

// The rank layout under srun: node lists, tasks per node and the port derived from the job id.
#include <gtest/gtest.h>

#include <map>

#include "launch/rank_layout.h"

namespace moe::launch {
namespace {

using Env = std::map<std::string, std::string>;

RankLayout slurm_layout(const Env& env) {
  return rank_layout_from_environment([&](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}

std::string slurm_problem(const Env& env) {
  try {
    slurm_layout(env);
    return "";
  } catch (const LayoutError& e) {
    return e.what();
  }
}

// Rank 5 of `srun -n 8` on two nodes of four tasks, job 1234567.
Env srun() {
  return {{"SLURM_PROCID", "5"},
          {"SLURM_NTASKS", "8"},
          {"SLURM_LOCALID", "1"},
          {"SLURM_NODEID", "1"},
          {"SLURM_TASKS_PER_NODE", "4(x2)"},
          {"SLURM_JOB_NODELIST", "node[07-08]"},
          {"SLURM_JOB_ID", "1234567"}};
}

TEST(RankLayoutSlurm, Srun) {
  const RankLayout l = slurm_layout(srun());
  EXPECT_EQ(l.source, "slurm");
  EXPECT_EQ(l.rank, 5);
  EXPECT_EQ(l.world_size, 8);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_world_size, 4);
  EXPECT_EQ(l.master_addr, "node07");
  EXPECT_EQ(l.master_port, 20000 + 1234567 % 20000);
}

TEST(RankLayoutSlurm, FirstHostOfEveryNodeListForm) {
  const std::pair<const char*, const char*> cases[] = {{"node[01-04,07],gpu5", "node01"},
                                                       {"a,b", "a"},
                                                       {"gpu5", "gpu5"},
                                                       {"r[2-3]n[009-010]", "r2n009"}};
  for (const auto& [list, first] : cases) {
    Env env = srun();
    env["SLURM_JOB_NODELIST"] = list;
    EXPECT_EQ(slurm_layout(env).master_addr, first) << list;
  }
  // The step's list wins over the job's, the job's over the old name.
  Env env = srun();
  env["SLURM_NODELIST"] = "old[1-2]";
  env.erase("SLURM_JOB_NODELIST");
  EXPECT_EQ(slurm_layout(env).master_addr, "old1");
  env["SLURM_JOB_NODELIST"] = "job[1-2]";
  EXPECT_EQ(slurm_layout(env).master_addr, "job1");
  env["SLURM_STEP_NODELIST"] = "step[3-4]";
  EXPECT_EQ(slurm_layout(env).master_addr, "step3");
}

TEST(RankLayoutSlurm, MasterVariablesOverrideTheNodeListAndJobId) {
  Env env = srun();
  env["MASTER_ADDR"] = "10.0.0.9";
  env["MASTER_PORT"] = "29512";
  const RankLayout l = slurm_layout(env);
  EXPECT_EQ(l.master_addr, "10.0.0.9");
  EXPECT_EQ(l.master_port, 29512);
}

TEST(RankLayoutSlurm, TasksPerNodeForms) {
  // This node's entry of an uneven list is the one SLURM_NODEID indexes.
  const std::tuple<const char*, const char*, int64_t> cases[] = {
      {"4", "1", 4}, {"4(x2)", "1", 4}, {"5,3", "1", 3}, {"5,3", "0", 5}, {"2(x3),2", "3", 2}};
  for (const auto& [list, node, expected] : cases) {
    Env env = srun();
    env["SLURM_TASKS_PER_NODE"] = list;
    env["SLURM_NODEID"] = node;
    EXPECT_EQ(slurm_layout(env).local_world_size, expected) << list << " node " << node;
  }
  // srun's list for the step comes before the job's, which comes before --ntasks-per-node.
  Env env = srun();
  env["SLURM_NTASKS_PER_NODE"] = "8";
  EXPECT_EQ(slurm_layout(env).local_world_size, 4);
  env["SLURM_STEP_TASKS_PER_NODE"] = "2(x4)";
  EXPECT_EQ(slurm_layout(env).local_world_size, 2);
  env.erase("SLURM_STEP_TASKS_PER_NODE");
  env.erase("SLURM_TASKS_PER_NODE");
  EXPECT_EQ(slurm_layout(env).local_world_size, 8);
}

TEST(RankLayoutSlurm, BadValuesNameTheVariable) {
  const std::tuple<const char*, const char*, const char*> cases[] = {
      {"SLURM_TASKS_PER_NODE", "4(x2", "SLURM_TASKS_PER_NODE=4(x2: '4(x2' lacks its ')'"},
      {"SLURM_JOB_NODELIST", "node[1-", "SLURM_JOB_NODELIST=node[1-: unbalanced brackets"},
      {"SLURM_JOB_ID", "abc", "SLURM_JOB_ID=abc: not a whole number"},
      {"SLURM_LOCALID", "4", "SLURM_LOCALID=4: must be less than SLURM_TASKS_PER_NODE=4"},
      {"SLURM_PROCID", "8", "SLURM_PROCID=8: must be less than SLURM_NTASKS=8"},
  };
  for (const auto& [name, value, message] : cases) {
    Env env = srun();
    env[name] = value;
    EXPECT_EQ(slurm_problem(env), message);
  }
  Env env = srun();
  env["SLURM_TASKS_PER_NODE"] = "4,2";
  env["SLURM_NODEID"] = "2";
  EXPECT_EQ(slurm_problem(env), "SLURM_NODEID=2: beyond the 2 nodes of SLURM_TASKS_PER_NODE=4,2");
  env.erase("SLURM_NODEID");
  EXPECT_EQ(slurm_problem(env), "SLURM_NODEID is not set");
  env = srun();
  env.erase("SLURM_LOCALID");
  EXPECT_EQ(slurm_problem(env), "SLURM_LOCALID is not set");
}

TEST(RankLayoutSlurm, SeveralRanksNeedAJobIdOrAPort) {
  Env env = srun();
  env.erase("SLURM_JOB_ID");
  EXPECT_EQ(slurm_problem(env),
            "SLURM_NTASKS=8: a run of several ranks needs MASTER_PORT or SLURM_JOB_ID (rank 0's "
            "rendezvous port), which is not set");
  env["MASTER_PORT"] = "0";
  EXPECT_EQ(slurm_problem(env), "MASTER_PORT=0: must be a port from 1 to 65535");
}

}  // namespace
}  // namespace moe::launch

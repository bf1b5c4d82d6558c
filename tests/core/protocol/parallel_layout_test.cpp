// parallel_layout: where the experts live on W ranks, which adaptive_r each placement admits, and
// every problem of running a config on a given number of ranks.
#include "protocol/parallel_layout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_util.h"

namespace moe::protocol {
namespace {

using ::testing::ElementsAre;
using testing::formatted;
using ::testing::IsEmpty;

void expect_placement(const ExpertPlacement& p, int64_t world, int64_t experts, int64_t local,
                      int64_t shards) {
  EXPECT_EQ(p.world, world);
  EXPECT_EQ(p.experts, experts);
  EXPECT_EQ(p.local_experts, local);
  EXPECT_EQ(p.shards, shards);
}

TEST(ExpertPlacement, SplitsShardsOrReplicates) {
  expect_placement(expert_placement(16, 4, true), 4, 16, 4, 1);  // 4 experts per rank
  expect_placement(expert_placement(4, 4, true), 4, 4, 1, 1);    // one each
  expect_placement(expert_placement(2, 8, true), 8, 2, 1, 4);    // each expert in 4 shards
  expect_placement(expert_placement(1, 6, true), 6, 1, 1, 6);
  expect_placement(expert_placement(8, 1, true), 1, 8, 8, 1);     // one rank holds them all
  expect_placement(expert_placement(8, 4, false), 4, 8, 8, 1);    // data parallel: replicated
  expect_placement(expert_placement(12, 8, true), 8, 12, 12, 1);  // no placement: replicated
}

TEST(ValidAdaptiveR, ZeroThenTheDivisorsOfTheShards) {
  EXPECT_THAT(valid_adaptive_r(expert_placement(2, 8, true)), ElementsAre(0, 1, 2, 4));
  EXPECT_THAT(valid_adaptive_r(expert_placement(1, 12, true)), ElementsAre(0, 1, 2, 3, 4, 6, 12));
  EXPECT_THAT(valid_adaptive_r(expert_placement(3, 9, true)), ElementsAre(0, 1, 3));
  EXPECT_THAT(valid_adaptive_r(expert_placement(16, 4, true)), ElementsAre(0, 1));
  EXPECT_THAT(valid_adaptive_r(expert_placement(2, 8, false)), ElementsAre(0, 1));
  EXPECT_THAT(valid_adaptive_r(ExpertPlacement{}), ElementsAre(0, 1));
}

RunConfig config(int64_t experts, int64_t batch) {
  RunConfig c;
  c.moe.experts = experts;
  c.moe.top_k = 1;
  c.train.batch_size = batch;
  return c;
}

TEST(LayoutProblems, ValidLayoutsHaveNone) {
  EXPECT_THAT(layout_problems(config(2, 16), 8), IsEmpty());
  RunConfig c = config(16, 16);
  c.parallel.adaptive_r = 0;
  EXPECT_THAT(layout_problems(c, 4), IsEmpty());
  c.parallel.adaptive_r = kAdaptiveRAuto;
  EXPECT_THAT(layout_problems(c, 1), IsEmpty());
}

TEST(LayoutProblems, ExpertsNeitherMultipleNorDivisor) {
  EXPECT_THAT(formatted(layout_problems(config(12, 16), 8)),
              ElementsAre("/moe/experts: must be a multiple or a divisor of the number of ranks "
                          "(8) with expert parallelism, got 12"));
  RunConfig c = config(12, 16);
  c.parallel.expert_parallel = false;  // replicated experts fit any world
  EXPECT_THAT(layout_problems(c, 8), IsEmpty());
}

TEST(LayoutProblems, ShardedExpertsSplitTheirHiddenUnitsEvenly) {
  RunConfig c = config(2, 16);
  c.moe.hidden = 6;  // 2 experts on 8 ranks: 4 shards of 6 hidden units do not split
  EXPECT_THAT(formatted(layout_problems(c, 8)),
              ElementsAre("/moe/hidden: must be a multiple of 4 to shard each expert over 4 "
                          "ranks, got 6"));
  EXPECT_THAT(layout_problems(c, 4), IsEmpty());  // 2 shards of 3
  EXPECT_THAT(layout_problems(c, 2), IsEmpty());  // whole experts
}

TEST(LayoutProblems, AdaptiveRMustSuitThePlacement) {
  RunConfig c = config(2, 16);
  c.parallel.adaptive_r = 8;
  EXPECT_THAT(formatted(layout_problems(c, 8)),
              ElementsAre(R"(/parallel/adaptive_r: must be "auto" or one of 0, 1, 2, 4 for )"
                          "2 experts on 8 ranks (each expert in 4 shards), got 8"));
  c = config(16, 16);
  c.parallel.adaptive_r = 2;
  EXPECT_THAT(formatted(layout_problems(c, 4)),
              ElementsAre(R"(/parallel/adaptive_r: must be "auto" or one of 0, 1 for )"
                          "16 experts on 4 ranks (4 per rank), got 2"));
  c.parallel.expert_parallel = false;
  EXPECT_THAT(formatted(layout_problems(c, 4)),
              ElementsAre(R"(/parallel/adaptive_r: must be "auto" or one of 0, 1 for )"
                          "16 experts on 4 ranks without expert parallelism (replicated), got 2"));
  c.parallel.adaptive_r = -7;  // set in code: only "auto" is negative
  EXPECT_THAT(formatted(layout_problems(c, 1)),
              ElementsAre(R"(/parallel/adaptive_r: must be "auto" or one of 0, 1 for )"
                          "16 experts on 1 rank, got -7"));
}

TEST(LayoutProblems, BatchMustSplitEvenlyOverTheRanks) {
  EXPECT_THAT(
      formatted(layout_problems(config(8, 12), 8)),
      ElementsAre("/train/batch_size: must be divisible by the number of ranks (8), got 12"));
  EXPECT_THAT(formatted(layout_problems(config(8, 4), 8)),
              ElementsAre("/train/batch_size: must be divisible by the number of ranks (8), got 4: "
                          "more ranks than the batch has rows"));
}

TEST(LayoutProblems, OverlapDegreeAndBackend) {
  RunConfig c = config(8, 16);
  c.parallel.a2a_overlap_degree = 0;
  c.parallel.backend = moe::protocol::Backend::Nccl;
  c.train.device = moe::protocol::Device::Cpu;
  EXPECT_THAT(formatted(layout_problems(c, 2)),
              ElementsAre(R"(/parallel/backend: "nccl" needs a GPU, but train.device is "cpu")",
                          "/parallel/a2a_overlap_degree: must be >= 1, got 0"));
}

TEST(LayoutProblems, TheWorldGivenNotTheConfigs) {
  // A run configured for 1 rank, resumed on 3: the engine checks the world it was started in.
  RunConfig c = config(8, 16);
  ASSERT_EQ(c.parallel.world_size(), 1);
  EXPECT_THAT(
      formatted(layout_problems(c, 3)),
      ElementsAre("/moe/experts: must be a multiple or a divisor of the number of ranks "
                  "(3) with expert parallelism, got 8",
                  "/train/batch_size: must be divisible by the number of ranks (3), got 16"));
  EXPECT_THAT(formatted(layout_problems(c, 0)),
              ElementsAre("/parallel/nproc: a run needs at least 1 rank, got 0"));
}

TEST(LayoutProblems, OutOfRangeValuesAreLeftToValidate) {
  RunConfig c = config(0, 0);
  EXPECT_THAT(layout_problems(c, 4), IsEmpty());
}

}  // namespace
}  // namespace moe::protocol

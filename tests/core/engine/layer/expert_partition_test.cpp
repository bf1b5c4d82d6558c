// How expert tensors split over ranks: every rank's part, and the whole put back from the parts
// (what checkpoints and r = 0 rely on).
#include <gtest/gtest.h>

#include "layer/expert_partition.h"

namespace moe::test {
namespace {

// E experts of [E, H, M], [E, H] and [E, M] with distinct values, split over W ranks.
void expect_round_trip(int64_t E, int64_t H, int64_t M, int64_t W) {
  SCOPED_TRACE("E=" + std::to_string(E) + " W=" + std::to_string(W));
  const auto w1 = torch::arange(E * H * M, at::kDouble).reshape({E, H, M});
  const auto b1 = torch::arange(E * H, at::kDouble).reshape({E, H});
  const auto b2 = torch::arange(E * M, at::kDouble).reshape({E, M});
  for (const auto& [full, whole] : {std::pair{w1, false}, {b1, false}, {b2, true}}) {
    std::vector<at::Tensor> parts;
    for (int64_t q = 0; q < W; ++q) {
      parts.push_back(layer::ExpertPartition::of(E, H, W, q).part_of(full, whole));
    }
    const auto p = layer::ExpertPartition::of(E, H, W, 0);
    EXPECT_TRUE(p.whole_from(at::stack(parts), whole).equal(full));
    EXPECT_TRUE(p.parts_of(full, whole).equal(at::stack(parts)));
  }
}

TEST(ExpertPartition, WholeExpertsSplitOverRanks) {
  const auto p = layer::ExpertPartition::of(8, 6, 4, 3);
  EXPECT_EQ(p.local_experts, 2);
  EXPECT_EQ(p.shards, 1);
  EXPECT_EQ(p.first_expert(), 6);
  const auto w1 = torch::arange(8 * 6 * 2, at::kDouble).reshape({8, 6, 2});
  EXPECT_TRUE(p.part_of(w1, false).equal(w1.narrow(0, 6, 2)));
  expect_round_trip(8, 6, 2, 4);
}

TEST(ExpertPartition, ExpertsShardedAlongTheirHiddenUnits) {
  // 2 experts over 4 ranks: rank 3 holds the second half of expert 1's hidden units.
  const auto p = layer::ExpertPartition::of(2, 6, 4, 3);
  EXPECT_EQ(p.shards, 2);
  EXPECT_EQ(p.first_expert(), 1);
  EXPECT_EQ(p.shard(), 1);
  const auto w1 = torch::arange(2 * 6 * 2, at::kDouble).reshape({2, 6, 2});
  EXPECT_TRUE(p.part_of(w1, false).equal(w1.narrow(0, 1, 1).narrow(1, 3, 3)));
  const auto b2 = torch::arange(2 * 2, at::kDouble).reshape({2, 2});
  EXPECT_TRUE(p.part_of(b2, true).equal(b2.narrow(0, 1, 1)));  // whole on every shard
  expect_round_trip(2, 6, 2, 4);
  expect_round_trip(1, 8, 3, 8);
}

TEST(ExpertPartition, LayoutsThatCannotSplitSayWhy) {
  EXPECT_THROW(layer::ExpertPartition::of(6, 8, 4, 0), std::invalid_argument);  // 6 % 4
  try {
    layer::ExpertPartition::of(2, 6, 8, 0);  // 4 shards of 6 hidden units
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("moe.hidden (6) a multiple of 4"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace moe::test

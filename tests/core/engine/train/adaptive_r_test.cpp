// parallel.adaptive_r "auto": the trial schedule, the choice, and the re-check.
#include <gtest/gtest.h>

#include "train/adaptive_r.h"

namespace moe::train {
namespace {

TEST(AdaptiveR, TriesEachCandidateThenKeepsTheFastest) {
  AdaptiveRChooser chooser({0, 1, 2}, /*first_step=*/1, /*steps_per_trial=*/3,
                           /*recheck_every=*/10);
  const std::map<int64_t, double> ms = {{0, 30.0}, {1, 10.0}, {2, 20.0}};
  std::optional<protocol::AdaptiveREvent> decision;
  for (int64_t step = 1; step <= 9; ++step) {
    const int64_t r = chooser.r_for(step);
    EXPECT_EQ(r, (step - 1) / 3) << step;
    // The warm-up step of each trial is slow and must not count.
    decision = chooser.record(step, (step - 1) % 3 == 0 ? 1000.0 : ms.at(r));
    if (step < 9) {
      EXPECT_FALSE(decision) << step;
    }
  }
  ASSERT_TRUE(decision);
  EXPECT_EQ(decision->step, 9);
  EXPECT_EQ(decision->r, 1);
  EXPECT_EQ(decision->tried, ms);
  EXPECT_NE(decision->reason.find("next check at step 20"), std::string::npos) << decision->reason;
  for (int64_t step = 10; step < 20; ++step) {
    EXPECT_EQ(chooser.r_for(step), 1) << step;
    EXPECT_FALSE(chooser.record(step, 1.0));
  }
  EXPECT_EQ(chooser.r_for(20), 0);  // the next trial starts
}

TEST(AdaptiveR, OneCandidateNeedsNoTrial) {
  AdaptiveRChooser chooser({1}, 5);
  for (int64_t step = 5; step < 50; ++step) {
    EXPECT_EQ(chooser.r_for(step), 1);
    EXPECT_FALSE(chooser.record(step, 3.0));
  }
}

TEST(AdaptiveR, ResumedRunStartsItsTrialAtItsFirstStep) {
  AdaptiveRChooser chooser({0, 1}, 101, 2, 50);
  EXPECT_EQ(chooser.r_for(101), 0);
  EXPECT_EQ(chooser.r_for(103), 1);
  chooser.record(101, 5.0);
  chooser.record(102, 5.0);
  chooser.record(103, 9.0);
  const auto decision = chooser.record(104, 9.0);
  ASSERT_TRUE(decision);
  EXPECT_EQ(decision->r, 0);
}

}  // namespace
}  // namespace moe::train

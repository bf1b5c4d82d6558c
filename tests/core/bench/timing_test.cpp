// The benchmark's timing: medians, and rounds in which every callable runs once per round.
#include <gtest/gtest.h>

#include <stdexcept>

#include "bench/timing.h"

namespace moe::bench {
namespace {

TEST(BenchTiming, MedianOfTakesTheMiddleValue) {
  EXPECT_DOUBLE_EQ(median_of({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 3);  // the upper middle of an even count
  EXPECT_DOUBLE_EQ(median_of({7}), 7);
  EXPECT_THROW(median_of({}), std::logic_error);
}

TEST(BenchTiming, RoundsRunEveryCallableOncePerRoundAfterItsWarmups) {
  int a = 0, b = 0;
  const TimingOptions opt{/*warmup=*/2, /*min_iters=*/4, /*min_seconds=*/0};
  const Rounds rounds(opt, {[&] { ++a; }, [&] { ++b; }}, {3});  // b keeps opt.warmup
  ASSERT_GE(rounds.count(), 4u);
  EXPECT_EQ(a, 3 + static_cast<int>(rounds.count()));
  EXPECT_EQ(b, 2 + static_cast<int>(rounds.count()));
  EXPECT_EQ(rounds.ms(0).size(), rounds.count());
  EXPECT_EQ(rounds.ms(1).size(), rounds.count());
  for (double ms : rounds.ms(0)) EXPECT_GE(ms, 0);
}

TEST(BenchTiming, RoundsGoOnUntilTheirMinimumTime) {
  int calls = 0;
  const TimingOptions opt{0, 1, 0.05};
  const Rounds rounds(opt, {[&] { ++calls; }});
  EXPECT_EQ(calls, static_cast<int>(rounds.count()));
  EXPECT_GT(rounds.count(), 1u);  // one empty call takes far less than 50 ms
}

TEST(BenchTiming, TheRatioIsTheMedianOfPerRoundRatios) {
  // A callable that does twice the work of the other in every round: per-round ratios near 2
  // whatever the machine's drift.
  volatile double sink = 0;
  const auto work = [&](int n) {
    for (int i = 0; i < n; ++i) sink = sink + 1.0 / (i + 1);
  };
  const TimingOptions opt{1, 9, 0};
  const Rounds rounds(opt, {[&] { work(400000); }, [&] { work(200000); }});
  const double ratio = rounds.median_ratio(0, 1);
  EXPECT_GT(ratio, 1.2);
  EXPECT_LT(ratio, 3.5);
  EXPECT_DOUBLE_EQ(rounds.median_ratio(1, 1), 1.0);
}

TEST(BenchTiming, MedianMsCountsWarmupsApart) {
  int calls = 0;
  const double ms = median_ms(TimingOptions{3, 5, 0}, [&] { ++calls; });
  EXPECT_GE(ms, 0);
  EXPECT_EQ(calls, 3 + 5);
}

}  // namespace
}  // namespace moe::bench

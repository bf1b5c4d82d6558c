// The benchmark's timing: medians, and rounds in which every callable runs once per round.
#include <gtest/gtest.h>

#include <chrono>
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
  const auto begin = std::chrono::steady_clock::now();
  const Rounds rounds(opt, {[&] { ++calls; }});
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
  EXPECT_GE(took.count(), 0.05);  // a lower bound: it holds however loaded the machine is
  EXPECT_EQ(calls, static_cast<int>(rounds.count()));
  EXPECT_GE(rounds.count(), 1u);
}

TEST(BenchTiming, TheRatioIsTheMedianOfPerRoundRatios) {
  // Each round's ratio from that round's own two times, then their median: not the ratio of two
  // medians (which mixes rounds the machine's drift hit differently).
  volatile double sink = 0;
  const auto work = [&](int n) {
    for (int i = 0; i < n; ++i) sink = sink + 1.0 / (i + 1);
  };
  const Rounds rounds(TimingOptions{1, 9, 0}, {[&] { work(40000); }, [&] { work(20000); }});
  std::vector<double> ratios;
  for (size_t r = 0; r < rounds.count(); ++r) ratios.push_back(rounds.ms(0)[r] / rounds.ms(1)[r]);
  EXPECT_DOUBLE_EQ(rounds.median_ratio(0, 1), median_of(ratios));
  EXPECT_DOUBLE_EQ(rounds.median_ratio(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(rounds.median_ms(0), median_of(rounds.ms(0)));
}

TEST(BenchTiming, MedianMsCountsWarmupsApart) {
  int calls = 0;
  const double ms = median_ms(TimingOptions{3, 5, 0}, [&] { ++calls; });
  EXPECT_GE(ms, 0);
  EXPECT_EQ(calls, 3 + 5);
}

}  // namespace
}  // namespace moe::bench

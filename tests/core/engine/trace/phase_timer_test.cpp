// PhaseTimes on the CPU: wall-clock time per phase, summed over the phases a step opens, recorded
// only into the PhaseTimes active on the phase's own thread.
#include "trace/phase_timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace moe::trace {
namespace {

void busy_for(std::chrono::milliseconds ms) {
  std::this_thread::sleep_for(ms);
}

double phase(const PhaseTimes& times, const std::string& name) {
  auto it = times.ms().find(name);
  return it == times.ms().end() ? -1.0 : it->second;
}

TEST(PhaseTimes, SumsEachPhaseOverItsOpenings) {
  PhaseTimes times;
  {
    ActivePhaseTimes active(&times);
    for (int i = 0; i < 2; ++i) {
      ScopedPhase p("experts");
      busy_for(std::chrono::milliseconds(15));
    }
    ScopedPhase g("gate");
  }
  EXPECT_GE(phase(times, "experts"), 30.0);
  EXPECT_GE(phase(times, "gate"), 0.0);
  EXPECT_LT(phase(times, "gate"), phase(times, "experts"));
  EXPECT_FALSE(times.on_device());
}

TEST(PhaseTimes, NothingIsRecordedWithoutAnActivePhaseTimes) {
  { ScopedPhase p("gate"); }
  PhaseTimes times;
  { ActivePhaseTimes active(&times); }
  { ScopedPhase p("gate"); }
  EXPECT_TRUE(times.ms().empty());
}

TEST(PhaseTimes, AnInnerActiveTimesHidesTheOuterUntilItEnds) {
  PhaseTimes outer, inner;
  ActivePhaseTimes a(&outer);
  {
    ActivePhaseTimes b(&inner);
    ScopedPhase p("dispatch");
  }
  { ScopedPhase p("combine"); }
  EXPECT_GE(phase(inner, "dispatch"), 0.0);
  EXPECT_LT(phase(inner, "combine"), 0.0);
  EXPECT_GE(phase(outer, "combine"), 0.0);
  EXPECT_LT(phase(outer, "dispatch"), 0.0);
}

// Only a PhaseTimes timing a CUDA device collects the phases of threads without their own (the
// autograd device thread); on the CPU, autograd runs on the caller's thread.
TEST(PhaseTimes, OnTheCpuAnotherThreadsPhasesAreNotCounted) {
  PhaseTimes times(c10::Device(c10::kCPU));
  ActivePhaseTimes active(&times);
  std::thread other([] {
    ScopedPhase p("combine_backward");
    busy_for(std::chrono::milliseconds(1));
  });
  other.join();
  EXPECT_TRUE(times.ms().empty());
}

TEST(PhaseTimes, ClearForgetsEveryPhase) {
  PhaseTimes times;
  times.add("backward", 3.0);
  times.add("backward", 2.0);
  EXPECT_DOUBLE_EQ(phase(times, "backward"), 5.0);
  times.clear();
  EXPECT_TRUE(times.ms().empty());
}

}  // namespace
}  // namespace moe::trace

#pragma once
// parallel.adaptive_r "auto": Tutel's adaptive parallelism, chosen by measurement. Each valid r
// runs for a few steps (the first of them a warm-up), the fastest is kept, and every
// `recheck_every` steps the trial runs again, since the fastest r can change as routing shifts.
// The parameter layout is the same for every r, so a switch costs nothing and changes no result.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "protocol/telemetry_events.h"

namespace moe::train {

class AdaptiveRChooser {
 public:
  AdaptiveRChooser(std::vector<int64_t> candidates, int64_t first_step, int64_t steps_per_trial = 3,
                   int64_t recheck_every = 200);

  // The r to run `step` with.
  int64_t r_for(int64_t step) const;
  // Whether `step` is part of a trial (its time counts).
  bool in_trial(int64_t step) const;
  // The time of `step` (the slowest rank's, so every rank decides alike). Returns the decision
  // when the trial ends at this step.
  std::optional<protocol::AdaptiveREvent> record(int64_t step, double step_ms);

 private:
  int64_t trial_length() const;
  std::vector<int64_t> candidates_;
  int64_t steps_per_trial_, recheck_every_;
  int64_t trial_start_;  // first step of the current or next trial
  int64_t chosen_;
  std::map<int64_t, double> sum_ms_;
  std::map<int64_t, int64_t> counted_;
};

}  // namespace moe::train

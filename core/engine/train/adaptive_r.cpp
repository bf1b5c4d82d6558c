#include "train/adaptive_r.h"

#include <sstream>

namespace moe::train {

AdaptiveRChooser::AdaptiveRChooser(std::vector<int64_t> candidates, int64_t first_step,
                                   int64_t steps_per_trial, int64_t recheck_every)
    : candidates_(std::move(candidates)),
      steps_per_trial_(std::max<int64_t>(2, steps_per_trial)),
      recheck_every_(std::max<int64_t>(1, recheck_every)),
      trial_start_(first_step),
      chosen_(candidates_.empty() ? 1 : candidates_.back()) {}

int64_t AdaptiveRChooser::trial_length() const {
  return candidates_.size() < 2 ? 0 : static_cast<int64_t>(candidates_.size()) * steps_per_trial_;
}

bool AdaptiveRChooser::in_trial(int64_t step) const {
  const int64_t offset = step - trial_start_;
  return offset >= 0 && offset < trial_length();
}

int64_t AdaptiveRChooser::r_for(int64_t step) const {
  const int64_t offset = step - trial_start_;
  if (!in_trial(step)) return chosen_;
  return candidates_[offset / steps_per_trial_];
}

std::optional<protocol::AdaptiveREvent> AdaptiveRChooser::record(int64_t step, double step_ms) {
  if (!in_trial(step)) return std::nullopt;
  const int64_t offset = step - trial_start_;
  const int64_t r = candidates_[offset / steps_per_trial_];
  if (offset % steps_per_trial_ != 0) {  // the first step of each r warms up
    sum_ms_[r] += step_ms;
    ++counted_[r];
  }
  if (offset != trial_length() - 1) return std::nullopt;

  protocol::AdaptiveREvent e;
  e.step = step;
  double best = 0;
  for (int64_t c : candidates_) {
    const double ms = sum_ms_[c] / static_cast<double>(std::max<int64_t>(1, counted_[c]));
    e.tried[c] = ms;
    if (c == candidates_.front() || ms < best) {
      best = ms;
      chosen_ = c;
    }
  }
  e.r = chosen_;
  std::ostringstream why;
  why << "r = " << chosen_ << " was fastest (" << best << " ms per step over "
      << steps_per_trial_ - 1 << " steps each); next check at step " << step + 1 + recheck_every_;
  e.reason = why.str();
  sum_ms_.clear();
  counted_.clear();
  trial_start_ = step + 1 + recheck_every_;
  return e;
}

}  // namespace moe::train

#include "train/lr_schedule.h"

#include <algorithm>
#include <cmath>

namespace moe::train {

double learning_rate(const protocol::TrainConfig& config, int64_t step) {
  const double base = config.lr;
  if (step <= config.warmup_steps) {
    return base * static_cast<double>(step) / static_cast<double>(config.warmup_steps);
  }
  if (config.schedule == protocol::Schedule::Constant) return base;
  // Progress through the decay, 0 just after warm-up, 1 at the last step.
  const double span = static_cast<double>(std::max<int64_t>(1, config.steps - config.warmup_steps));
  const double progress = std::clamp((step - config.warmup_steps) / span, 0.0, 1.0);
  if (config.schedule == protocol::Schedule::Cosine)
    return base * 0.5 * (1.0 + std::cos(M_PI * progress));
  return base * (1.0 - progress);  // linear
}

}  // namespace moe::train

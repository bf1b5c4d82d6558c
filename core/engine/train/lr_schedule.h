#pragma once
// Learning rate per optimizer step (train.schedule, train.warmup_steps).
#include <cstdint>

#include "protocol/run_config.h"

namespace moe::train {

// lr for optimizer step `step` (1-based, as reported in telemetry). Warm-up rises linearly to
// train.lr over warmup_steps steps; then constant, cosine (to 0 at train.steps) or linear decay.
double learning_rate(const protocol::TrainConfig& config, int64_t step);

}  // namespace moe::train

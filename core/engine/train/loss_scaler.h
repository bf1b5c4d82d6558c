#pragma once
// Dynamic loss scaling for train.dtype "float16" (as torch.cuda.amp.GradScaler): the loss is
// multiplied by a large scale before backward so that small gradients do not flush to zero in
// float16, and the gradients are divided by it again before clipping and the optimizer step. A
// step whose gradients overflowed (inf/NaN) is skipped and the scale halved; after
// kGrowthInterval good steps in a row it doubles. Device-agnostic: plain Torch ops on the
// gradients' own device, one host read per step.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "dist/process_group.h"
#include "train/optimizer.h"
#include "train/run_log.h"

namespace moe::train {

class LossScaler {
 public:
  // 2^16: large enough to lift typical float16 gradients out of the subnormal range, and the
  // first overflows bring it down within a few steps when it is too large (GradScaler's default).
  static constexpr double kInitialScale = 65536.0;
  // Below 1 the scaling would shrink gradients instead of protecting them.
  static constexpr double kMinScale = 1.0;
  // 2^24: a bound on growth. At it, true gradients down to 2^-48 still reach float16's smallest
  // subnormal (2^-24), far below anything that moves a weight: more scale would only buy overflows.
  static constexpr double kMaxScale = 16777216.0;
  // Good steps in a row before the scale doubles (GradScaler's default): rare enough that an
  // overflow-prone scale is not retried often.
  static constexpr int64_t kGrowthInterval = 2000;
  // The key of its state in a checkpoint's state.json.
  static constexpr const char* kStateKey = "loss_scale";

  explicit LossScaler(int64_t growth_interval = kGrowthInterval);

  // `loss` times the current scale (what backward runs on).
  at::Tensor scale(const at::Tensor& loss) const;

  // Divides every gradient of `params` by the scale (in place) and returns whether all are
  // finite. With a group: whether every rank's are, so that all ranks skip the same steps.
  bool unscale_and_check(const std::vector<at::Tensor>& params) const;
  bool unscale_and_check(const std::vector<at::Tensor>& params, dist::ProcessGroup& group) const;

  // After each step: an overflow halves the scale (not below kMinScale) and restarts the count
  // of good steps; kGrowthInterval good steps double it (not above kMaxScale).
  void update(bool finite);

  double current() const { return scale_; }
  int64_t good_steps() const { return good_steps_; }

  // Writes {"scale", "good_steps"} under kStateKey into a checkpoint's state, and reads it back;
  // a state without the key (an older checkpoint) restores the initial state.
  // std::runtime_error when the entry is there but not a state this class wrote.
  void save_to(nlohmann::json& state) const;
  void restore_from(const nlohmann::json& state);

 private:
  int64_t growth_interval_;
  double scale_ = kInitialScale;
  int64_t good_steps_ = 0;
};

// The trainer's float16 step after the gradient all-reduce: unscales this rank's gradients,
// agrees over the group whether all are finite, updates the scale, and on an overflow logs one
// warning with the new scale. Returns whether the optimizer step goes ahead.
bool unscale_for_step(LossScaler& scaler, const std::vector<NamedParameter>& params,
                      dist::ProcessGroup& group, RunLog& log, int64_t step);

}  // namespace moe::train

#include "train/loss_scaler.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace moe::train {

LossScaler::LossScaler(int64_t growth_interval) : growth_interval_(growth_interval) {
  if (growth_interval_ < 1) throw std::invalid_argument("loss scaler: growth interval below 1");
}

at::Tensor LossScaler::scale(const at::Tensor& loss) const {
  return loss * scale_;
}

bool LossScaler::unscale_and_check(const std::vector<at::Tensor>& params) const {
  at::NoGradGuard no_grad;
  // The scale is a power of two, so its inverse is exact and the product loses nothing.
  const double inverse = 1.0 / scale_;
  // One flag over every gradient, read once: a host sync per parameter would stall the device.
  at::Tensor all_finite;
  for (const at::Tensor& p : params) {
    if (!p.grad().defined()) continue;
    at::Tensor& g = p.mutable_grad();
    g.mul_(inverse);  // inf and NaN stay what they are
    at::Tensor finite = at::isfinite(g).all();
    all_finite = all_finite.defined() ? all_finite.logical_and_(finite) : finite;
  }
  return !all_finite.defined() || all_finite.item<bool>();
}

bool LossScaler::unscale_and_check(const std::vector<at::Tensor>& params,
                                   dist::ProcessGroup& group) const {
  const bool finite = unscale_and_check(params);
  // Replicated gradients are equal everywhere after the all-reduce, but split experts' are not:
  // the highest overflow flag of any rank decides, so that every rank skips alike.
  auto overflow = at::tensor({static_cast<int64_t>(!finite)}, at::kLong);
  group.all_reduce_max(overflow);
  return overflow.item<int64_t>() == 0;
}

void LossScaler::update(bool finite) {
  if (!finite) {
    scale_ = std::max(scale_ / 2, kMinScale);
    good_steps_ = 0;
    return;
  }
  if (++good_steps_ < growth_interval_) return;
  scale_ = std::min(scale_ * 2, kMaxScale);
  good_steps_ = 0;
}

void LossScaler::save_to(nlohmann::json& state) const {
  state[kStateKey] = {{"scale", scale_}, {"good_steps", good_steps_}};
}

void LossScaler::restore_from(const nlohmann::json& state) {
  auto it = state.find(kStateKey);
  if (it == state.end()) {
    scale_ = kInitialScale;
    good_steps_ = 0;
    return;
  }
  const auto bad = [](const std::string& what) {
    return std::runtime_error(std::string("\"") + kStateKey + "\": " + what);
  };
  const nlohmann::json& entry = *it;
  if (!entry.is_object() || !entry.contains("scale") || !entry.contains("good_steps") ||
      !entry["scale"].is_number() || !entry["good_steps"].is_number_integer()) {
    throw bad("expected {\"scale\": number, \"good_steps\": integer}, got " + entry.dump());
  }
  const double scale = entry["scale"].get<double>();
  const int64_t good_steps = entry["good_steps"].get<int64_t>();
  // Every scale this class reaches is a power of two in [kMinScale, kMaxScale].
  int exponent = 0;
  if (!(scale >= kMinScale && scale <= kMaxScale) || std::frexp(scale, &exponent) != 0.5) {
    throw bad("scale " + entry["scale"].dump() + " is not a power of two in [1, 2^24]");
  }
  if (good_steps < 0 || good_steps >= growth_interval_) {
    throw bad("good_steps " + std::to_string(good_steps) + " is outside [0, " +
              std::to_string(growth_interval_ - 1) + "]");
  }
  scale_ = scale;
  good_steps_ = good_steps;
}

bool unscale_for_step(LossScaler& scaler, const std::vector<NamedParameter>& params,
                      dist::ProcessGroup& group, RunLog& log, int64_t step) {
  std::vector<at::Tensor> tensors;
  tensors.reserve(params.size());
  for (const NamedParameter& p : params) tensors.push_back(p.param);
  const bool finite = scaler.unscale_and_check(tensors, group);
  scaler.update(finite);
  if (!finite) {
    std::ostringstream msg;
    msg << "step " << step << ": float16 gradients overflowed (inf/NaN), optimizer step skipped; "
        << "loss scale now " << static_cast<int64_t>(scaler.current());  // a power of two
    log.warn(msg.str());
  }
  return finite;
}

}  // namespace moe::train

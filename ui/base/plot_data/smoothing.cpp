#include "base/plot_data/smoothing.h"

#include <algorithm>
#include <cmath>

namespace moe::ui {

double EmaSmoother::add(double value) {
  if (!std::isfinite(value)) return value;  // a gap stays a gap and leaves the average alone
  // w = 1 would never move away from the zero start; keep it just below.
  const double w = std::clamp(weight_, 0.0, 0.999999);
  avg_ = w * avg_ + (1 - w) * value;
  norm_ = w * norm_ + (1 - w);  // = 1 - w^n after n values: the debiasing divisor
  return avg_ / norm_;
}

QVector<double> smoothed(const QVector<double>& values, double weight) {
  EmaSmoother smoother(weight);
  QVector<double> out;
  out.reserve(values.size());
  for (double v : values) out.append(smoother.add(v));
  return out;
}

}  // namespace moe::ui

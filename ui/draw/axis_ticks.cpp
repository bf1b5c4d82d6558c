// Axis ticks (axis_ticks.h).
#include "draw/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace moe::ui {

std::vector<double> niceTicks(double lower, double upper, int target, bool integers) {
  std::vector<double> ticks;
  if (!std::isfinite(lower) || !std::isfinite(upper) || upper <= lower || target < 1) return ticks;
  const double raw = (upper - lower) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  }
  if (integers) step = std::max(1.0, std::round(step));
  for (double t = std::ceil(lower / step - 1e-9) * step; t <= upper + step * 1e-9; t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-6 ? 0.0 : t);
    if (ticks.size() > 1000) break;  // a degenerate range; never more than a handful otherwise
  }
  return ticks;
}

QString tickLabel(double value, double step) {
  if (std::fabs(value) < std::fabs(step) * 1e-6) return QStringLiteral("0");
  return QString::number(value, 'g', 6);
}

}  // namespace moe::ui

// Report chart data (report_chart.h).
#include "base/report/report_chart.h"

#include <cmath>
#include <limits>

namespace moe::ui {

double finiteMean(const std::vector<double>& values) {
  double sum = 0;
  size_t n = 0;
  for (double v : values) {
    if (std::isfinite(v)) {
      sum += v;
      ++n;
    }
  }
  return n ? sum / static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace moe::ui

#include "base/plot_data/phase_bins.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui {

size_t phaseRank(const std::string& name) {
  const auto& spec = protocol::kPhaseNames;
  return static_cast<size_t>(std::find(spec.begin(), spec.end(), name) - spec.begin());
}

double PhaseBins::totalMs(size_t bin) const {
  double total = 0;
  for (const auto& phase : mean_ms) total += phase[bin];
  return total;
}

PhaseBins binPhases(const PhaseColumns& phases, size_t max_bins) {
  PhaseBins out;
  const size_t rows = phases.size();
  // RunSeries keeps phases in the order first seen; the stack wants kPhaseNames order.
  std::vector<size_t> order(phases.names.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return phaseRank(phases.names[a]) < phaseRank(phases.names[b]);
  });
  order.erase(std::remove_if(order.begin(), order.end(),
                             [&](size_t i) {
                               const auto& ms = phases.ms[i];
                               return std::none_of(ms.begin(), ms.end(),
                                                   [](double v) { return std::isfinite(v); });
                             }),
              order.end());
  for (size_t i : order) out.names.push_back(phases.names[i]);
  out.mean_ms.resize(order.size());
  if (rows == 0 || max_bins == 0) return out;

  const size_t bins = std::min(rows, max_bins);
  for (size_t b = 0; b < bins; ++b) {
    const size_t lo = b * rows / bins, hi = (b + 1) * rows / bins;
    out.first_step.push_back(phases.step[lo]);
    out.last_step.push_back(phases.step[hi - 1]);
    out.centre.push_back((phases.step[lo] + phases.step[hi - 1]) / 2);
    for (size_t p = 0; p < order.size(); ++p) {
      const std::vector<double>& ms = phases.ms[order[p]];
      double sum = 0;
      size_t reported = 0;
      for (size_t r = lo; r < hi; ++r) {
        if (!std::isfinite(ms[r])) continue;
        sum += ms[r];
        ++reported;
      }
      out.mean_ms[p].push_back(reported > 0 ? sum / static_cast<double>(reported) : 0.0);
    }
  }
  // Width: the logged steps' span plus one step interval, shared by the bins.
  const double span = phases.step.back() - phases.step.front();
  const double interval = rows > 1 ? span / static_cast<double>(rows - 1) : 1.0;
  out.width = (span + interval) / static_cast<double>(bins);
  return out;
}

}  // namespace moe::ui

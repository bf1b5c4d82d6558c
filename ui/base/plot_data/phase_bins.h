// Phase times decimated for drawing: consecutive logged steps grouped into at most `max_bins`
// bins (rows / bins rows each, give or take one, like RunSeries::loadMatrix), and each phase's
// milliseconds averaged within a bin. Plain C++, so the averaging is testable without a plot.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

struct PhaseBins {
  // The phases, in kPhaseNames order (gate, dispatch, a2a, experts, combine, backward, optimizer,
  // other) then any others; a phase no step reported (all NaN) is left out.
  std::vector<std::string> names;
  std::vector<double> first_step, last_step;  // the steps each bin covers
  std::vector<double> centre;                 // the middle of each bin, in steps
  // mean_ms[phase][bin]: the mean over the bin's steps that reported the phase (a NaN, "not
  // reported", is skipped, not read as 0); 0 where none did.
  std::vector<std::vector<double>> mean_ms;
  double width = 1;  // a bin's width in steps (the mean over bins: all equal when logging is even)

  size_t size() const { return centre.size(); }
  double totalMs(size_t bin) const;
};

PhaseBins binPhases(const PhaseColumns& phases, size_t max_bins);

// Where a phase sits in kPhaseNames order; names outside kPhaseNames come after, ranked equal.
size_t phaseRank(const std::string& name);

}  // namespace moe::ui

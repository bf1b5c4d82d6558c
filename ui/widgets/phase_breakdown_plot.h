// PhaseBreakdownPlot: where each step's time goes. Stacked bars over steps, one per phase (gate
// at the bottom, then dispatch, a2a, experts, combine, backward, optimizer, other: kPhaseNames
// order), each bar the mean milliseconds of that phase over a group of consecutive logged steps; at
// most kMaxBins groups, so a long run stays as cheap to draw and as readable as a short one.
// Hovering lists each phase's milliseconds and share of the group under the mouse.
//
// updateFrom() re-reads only when the series' version changed (cheap at 25 fps otherwise).
#pragma once

#include <QColor>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <qcustomplot.h>

#include "base/plot_data/phase_bins.h"

namespace moe::ui {

class RunSeries;

class PhaseBreakdownPlot : public QCustomPlot {
  Q_OBJECT

 public:
  static constexpr size_t kMaxBins = 150;

  explicit PhaseBreakdownPlot(QWidget* parent = nullptr);

  void updateFrom(const RunSeries& series);

  // What is drawn: the binned phases, and one bar series per bins().names entry, bottom of the
  // stack first.
  const PhaseBins& bins() const { return bins_; }
  const std::vector<QCPBars*>& bars() const { return bars_; }
  // "steps 100–120: 12.3 ms per step" then "gate  1.2 ms (9.8 %)" per phase; empty off the bars.
  QString tooltipAt(double step) const;

  // A phase's colour: the kPhaseNames phases keep theirs whatever else the run reports.
  static QColor phaseColor(const std::string& name);

 private:
  void rebuildBars();
  void showTooltip(QMouseEvent* event);

  PhaseBins bins_;
  std::vector<QCPBars*> bars_;

  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
};

}  // namespace moe::ui

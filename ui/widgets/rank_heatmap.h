// RankHeatmap: a multi-process run's step time per rank over the run, ranks (y) x steps (x), so a
// straggler shows as a bright row and a slow stretch of the run as a bright column (the colours
// run from the fastest cell to the slowest, so differences of a few percent show). Consecutive
// logged steps are averaged into about one cell per two pixels of width (RunSeries::rankMatrix),
// as ExpertLoadHeatmap does. Row i is the i-th rank in ascending order (rank i when the engine
// numbers its ranks 0..W-1, as it does).
//
// updateFrom() is meant for a ~25 fps timer: it re-reads only when the series' version or the
// cell count (the width) changed.
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>

#include <qcustomplot.h>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

class RunSeries;

class RankHeatmap : public QCustomPlot {
  Q_OBJECT

 public:
  explicit RankHeatmap(QWidget* parent = nullptr);

  void updateFrom(const RunSeries& series);

  // What is drawn: mean step_ms, ranks x bins.
  const RankMatrix& matrix() const { return matrix_; }
  QCPColorMap* colorMap() const { return map_; }
  // "rank 3 (node-b), steps 100–120: 133 ms (1.30x median)" at a point in plot coordinates
  // (step, row); empty off the map.
  QString tooltipAt(double step, double row) const;

 private:
  void rebuild();
  void showTooltip(QMouseEvent* event);

  RankMatrix matrix_;
  QCPColorMap* map_ = nullptr;

  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
  size_t source_bins_ = 0;
};

}  // namespace moe::ui

// ExpertLoadHeatmap: one MoE layer's tokens per expert over the run, experts (y) x steps (x).
// Consecutive logged steps are averaged into about one cell per two pixels of width
// (RunSeries::loadMatrix), so a long run costs no more to draw than a short one.
//
// Two ways to colour a cell:
// - kCounts: tokens routed to the expert (averaged over the cell's steps), viridis.
// - kRelative: count / the mean count over the layer's experts in that cell, so 1.0 is a fair
//   share; a diverging 0..2 scale centred on 1 shows underused experts blue, overloaded red.
//
// updateFrom() is meant for a ~25 fps timer: it re-reads only when the series' version, the
// settings or the cell count (the width) changed, and costs a few comparisons otherwise.
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>

#include <qcustomplot.h>

#include "base/telemetry/series_columns.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

class RunSeries;

class ExpertLoadHeatmap : public QCustomPlot {
  Q_OBJECT

 public:
  enum class Kind { kCounts, kRelative };

  explicit ExpertLoadHeatmap(QWidget* parent = nullptr);

  void setLayer(int64_t layer);
  int64_t layer() const { return layer_; }
  void setValueKind(Kind kind);
  Kind valueKind() const { return kind_; }
  // The steps shown; all of them by default.
  void setStepRange(const StepRange& range);

  void updateFrom(const RunSeries& series);

  // What is drawn, for the tooltip and for tests: the averaged counts, experts x bins.
  const LoadMatrix& matrix() const { return matrix_; }
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return scale_; }
  // The colour value of a cell (count, or count / mean); NaN when there is no such cell.
  double cellValue(size_t bin, size_t expert) const;
  // "expert 5, steps 100–120: 312 tokens (1.4x mean)" for a point in plot coordinates (step,
  // expert); empty off the map.
  QString tooltipAt(double step, double expert) const;

  // Cells for a plot this many pixels wide: one per two pixels, within 50..600.
  static size_t binsForWidth(int pixels);

 private:
  void rebuild();
  void showTooltip(QMouseEvent* event);

  int64_t layer_ = 0;
  Kind kind_ = Kind::kCounts;
  StepRange range_ = StepRange::all();
  LoadMatrix matrix_;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;

  StepHeatmapSource source_;
};

}  // namespace moe::ui

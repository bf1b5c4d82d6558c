// What the heatmaps of rows over steps share (ExpertLoadHeatmap: experts x steps; RankHeatmap:
// ranks x steps): the plot's set-up, and placing bins of logged steps as cells, each bin's cell
// centred on the middle of the steps it covers, so the map's edges fall where its steps end.
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <qcustomplot.h>

namespace moe::ui {

class RunSeries;

// What a heatmap's drawn matrix was read from: the series, its version and the cell count (the
// width). updateFrom() runs on a ~25 fps timer; a difference means read the matrix again.
class StepHeatmapSource {
 public:
  void invalidate() { stale_ = true; }
  // True, remembering them, when `series`, its version or `bins` differ from the last read.
  bool changed(const RunSeries& series, size_t bins);

 private:
  const RunSeries* series_ = nullptr;
  uint64_t version_ = 0;
  size_t bins_ = 0;
  bool stale_ = true;
};

// Sets `plot` up as a heatmap of rows (y: whole numbers, `row_label`) over steps (x): styled, no
// zoom or drag (the map shows its range whole; hover tells the values), no grid, and a colour map
// with a colour scale labelled `scale_label`, viridis until the caller picks another gradient.
QCPColorMap* makeStepHeatmap(QCustomPlot* plot, const QString& row_label,
                             const QString& scale_label);

// Sizes `map` to bins x rows cells, bin b covering steps [first_step[b], last_step[b]], and fits
// the axes to the cells; without bins or rows, empties and hides the map instead. The caller then
// fills the cells (setCell) and replots. Returns whether there are cells.
bool placeStepCells(QCustomPlot* plot, QCPColorMap* map, const std::vector<double>& first_step,
                    const std::vector<double>& last_step, int rows);

// The cell of `map` under the point (step, row) in plot coordinates: {bin, row}, or nullopt off
// the cells or while the map is hidden (tooltips).
std::optional<std::pair<int, int>> stepCellAt(const QCPColorMap* map, double step, double row);

// "step 5", or "steps 100–120" for a bin of several.
QString stepSpanText(double first, double last);

}  // namespace moe::ui

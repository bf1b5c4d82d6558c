// What the heatmaps of rows over steps share (ExpertLoadHeatmap: experts x steps; RankHeatmap:
// ranks x steps): the plot's set-up, and placing bins of logged steps as cells, each bin's cell
// centred on the middle of the steps it covers, so the map's edges fall where its steps end.
#pragma once

#include <QString>

#include <vector>

#include <qcustomplot.h>

namespace moe::ui {

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

// "step 5", or "steps 100–120" for a bin of several.
QString stepSpanText(double first, double last);

}  // namespace moe::ui

// What the dashboard's heatmaps share: their two colour gradients, the colour scale beside the
// map, and the arithmetic that puts a colour map's cells exactly on the steps or experts they
// stand for.
#pragma once

#include <QString>

#include <qcustomplot.h>

namespace moe::ui {

// Sequential and perceptually uniform (matplotlib's viridis, by hand: QCustomPlot 2.1.0 has no
// gpViridis), for absolute values such as tokens routed.
QCPColorGradient viridisGradient();
// Diverging around the middle (ColorBrewer's RdBu, reversed): blue = underused, near-white =
// balanced, red = overloaded. Meant for a 0..2 range of load / mean load. NaN is transparent.
QCPColorGradient balanceGradient();
// Diverging around the middle for a signed value whose sign is no verdict (ColorBrewer's PRGn):
// purple = negative, near-white = 0, green = positive; the selection bias. NaN is transparent.
QCPColorGradient biasGradient();

// A colour scale to the right of the plot's axis rect, sharing its top and bottom margins so the
// two line up, labelled and styled like style_plot's axes.
QCPColorScale* addColorScale(QCustomPlot* plot, QCPColorMap* map, const QString& label);

// The colour map range for `cells` equal cells that together cover [lo_edge, hi_edge]: QCPColorMap
// centres its outer cells on the range's ends, so the range runs between the outer cells' centres
// (and a single cell's range is its edges).
QCPRange cellCentreRange(double lo_edge, double hi_edge, int cells);
// The cell of a colour map dimension under `coord` (the inverse of the above), or -1.
int cellIndex(double coord, const QCPRange& range, int cells);

// Shows `text` as the tooltip at the mouse, or hides the tooltip when it is empty (the mouse is
// off the cells).
void showPlotTooltip(QCustomPlot* plot, QMouseEvent* event, const QString& text);

// A count for a tooltip: "312", or "3.4" when small enough that the fraction says something.
QString formatTooltipCount(double count);

}  // namespace moe::ui

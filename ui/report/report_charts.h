// The charts of a report, drawn offscreen in the dashboard's look (plot_style.h, heatmap_style.h)
// as plain QCustomPlots: curves go through CurveDecimator, so a long run draws at most a few
// thousand points per curve and the SVG of a report stays small. GUI thread only: a QCustomPlot is
// a widget, even one that is never shown.
#pragma once

#include <QColor>
#include <QSize>
#include <QString>

#include <memory>
#include <vector>

#include "base/telemetry/series_columns.h"

class QCustomPlot;

namespace moe::ui {

// Chart sizes (pixels at 96 dpi): full width of the report's column.
inline constexpr QSize kWideChart{880, 280};
inline constexpr QSize kHeatmapChart{880, 220};

// An empty plot, styled, with its legend at the top right.
std::unique_ptr<QCustomPlot> newReportPlot(const QString& x_label, const QString& y_label);

// A curve of (x, y), decimated; NaN breaks the line. On the right axis when `right`.
void addCurve(QCustomPlot* plot, const QString& name, const std::vector<double>& x,
              const std::vector<double>& y, const QColor& color, double width = 1.5,
              bool right = false);
// Points with no line (eval losses).
void addMarkers(QCustomPlot* plot, const QString& name, const std::vector<double>& x,
                const std::vector<double>& y, const QColor& color);
// Fits the axes to the data (positive y from 0 when `from_zero`), shows the legend when more than
// one thing is named, and lays the plot out at `size`.
void finishPlot(QCustomPlot* plot, QSize size, bool from_zero = false);

// One layer's experts x steps token counts (viridis, with its colour scale).
std::unique_ptr<QCustomPlot> loadHeatmapPlot(const LoadMatrix& matrix);
// The phases per step, binned and stacked as on the dashboard's Phases page.
std::unique_ptr<QCustomPlot> phaseStackPlot(const PhaseColumns& phases);
// Per rank, the mean compute, all-to-all and all-reduce milliseconds of a step, side by side.
std::unique_ptr<QCustomPlot> rankWaitsPlot(const RankColumns& ranks);

// Mean of the finite values; NaN when there is none.
double finiteMean(const std::vector<double>& values);

}  // namespace moe::ui

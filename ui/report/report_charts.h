// Report charts drawn: a chart's data (base/report/report_chart.h) as a plain QCustomPlot,
// offscreen, in the dashboard's look (plot_style.h, heatmap_style.h). Curves go through
// CurveDecimator, so a long run draws at most a few thousand points per curve and the SVG of a
// report stays small. GUI thread only: a QCustomPlot is a widget, even one that is never shown.
#pragma once

#include <memory>

#include "base/report/report_document.h"

class QCustomPlot;

namespace moe::ui {

// The chart, laid out at its size and replotted.
std::unique_ptr<QCustomPlot> drawReportChart(const ReportChart& chart);

}  // namespace moe::ui

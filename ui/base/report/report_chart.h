// A report's charts as data: what each shows, never how it is drawn. The widgets library draws
// them (report/report_charts.h) when a writer needs them, in the dashboard's look, so a report
// is built on any thread and without Widgets.
#pragma once

#include <QSize>
#include <QString>

#include <utility>
#include <variant>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

// Chart sizes (pixels at 96 dpi): full width of the report's column.
inline constexpr QSize kWideChart{880, 280};
inline constexpr QSize kHeatmapChart{880, 220};

// One series of a curve chart.
struct ChartSeries {
  enum class Style {
    kLine,           // a line, decimated for a long run; NaN breaks it
    kDashedMarkers,  // points joined by a dashed line (eval losses)
  };
  QString name;
  std::vector<double> x, y;
  int colour = 0;      // index into the dashboard's series palette (widgets/plot_style.h)
  bool light = false;  // that colour lightened: a raw curve behind its smoothed one
  double width = 1.5;
  bool right = false;  // on the right axis
  Style style = Style::kLine;
};

// A line series in palette colour `colour`.
inline ChartSeries lineSeries(QString name, std::vector<double> x, std::vector<double> y,
                              int colour, double width, bool right = false) {
  ChartSeries s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  s.colour = colour;
  s.width = width;
  s.right = right;
  return s;
}

// Points joined by a dashed line, in palette colour `colour`.
inline ChartSeries markerSeries(QString name, std::vector<double> x, std::vector<double> y,
                                int colour) {
  ChartSeries s = lineSeries(std::move(name), std::move(x), std::move(y), colour, 1.2);
  s.style = ChartSeries::Style::kDashedMarkers;
  return s;
}

// Curves over steps (or any x). The legend shows when more than one series is named.
struct CurveChart {
  QString x_label, y_label;
  QString y2_label;        // the right axis' label, when a series is on it
  bool from_zero = false;  // positive y axes start at 0
  std::vector<ChartSeries> series;

  CurveChart(QString x, QString y, bool zero = false, QString y2 = {})
      : x_label(std::move(x)), y_label(std::move(y)), y2_label(std::move(y2)), from_zero(zero) {}
  ChartSeries& add(ChartSeries s) { return series.emplace_back(std::move(s)); }
};

// One layer's experts x steps token counts (viridis, with its colour scale).
struct LoadHeatmapChart {
  LoadMatrix matrix;
};

// The phases per step, binned and stacked as on the dashboard's Phases page.
struct PhaseStackChart {
  PhaseColumns phases;
};

// Per rank, the mean compute, all-to-all and all-reduce milliseconds of a step, side by side.
struct RankWaitsChart {
  RankColumns ranks;
};

// A matrix of values as a heatmap (viridis, with its colour scale): row r at y = row_at[r] (rows
// need not be adjacent: a gap stays blank), column c at x = c. A NaN cell is drawn light grey; a
// marked cell gets its mark over the colour (the legend names the marks in use).
struct MatrixChart {
  enum class Mark : unsigned char { kNone, kDead, kOverloaded };
  QString x_label, y_label, scale_label;
  std::vector<double> row_at;  // ascending
  size_t columns = 0;
  std::vector<double> values;            // values[row * columns + column]
  std::vector<Mark> marks;               // empty, or one per cell
  QString dead_label, overloaded_label;  // the legend's words for the marks

  double at(size_t row, size_t column) const { return values[row * columns + column]; }
};

using ChartContent =
    std::variant<CurveChart, LoadHeatmapChart, PhaseStackChart, RankWaitsChart, MatrixChart>;

// Mean of the finite values; NaN when there is none.
double finiteMean(const std::vector<double>& values);

}  // namespace moe::ui

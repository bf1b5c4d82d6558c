// Report charts (report_charts.h).
#include "report/report_charts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "base/plot_data/phase_bins.h"
#include "widgets/curve_decimator.h"
#include "widgets/heatmap_style.h"
#include "widgets/phase_breakdown_plot.h"
#include "widgets/plot_style.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

namespace {
constexpr size_t kPhaseBins = 80;  // each phase is a bar per bin: the biggest chart in SVG
// The legend in a row under the axis rect, its entries side by side: a report cannot hover, and a
// legend inside the plot hides data somewhere.
void legendBelow(QCustomPlot* plot) {
  QCPLegend* legend = plot->legend;
  if (!legend->visible() || legend->layout() != plot->axisRect()->insetLayout()) return;
  plot->axisRect()->insetLayout()->take(legend);
  plot->axisRect()->insetLayout()->simplify();
  auto* row = new QCPLayoutGrid;
  plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, row);
  row->setMargins(QMargins(40, 0, 10, 2));
  row->addElement(0, 0, legend);
  // A spacer takes the rest of the row: the legend keeps its own width, entries close together.
  row->addElement(0, 1, new QCPLayoutElement(plot));
  row->setColumnStretchFactor(0, 0.001);
  row->setColumnStretchFactor(1, 1);
  legend->setWrap(4);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // rearranges the entries
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
  plot->plotLayout()->setRowStretchFactor(plot->plotLayout()->rowCount() - 1, 0.001);
}

// An empty plot, styled, with its legend at the top right.
std::unique_ptr<QCustomPlot> newReportPlot(const QString& x_label, const QString& y_label) {
  auto plot = std::make_unique<QCustomPlot>();
  plot->setAttribute(Qt::WA_DontShowOnScreen);
  stylePlot(plot.get(), x_label, y_label);
  plot->setInteractions({});
  plot->setBackground(QBrush(Qt::white));
  plot->legend->setBrush(QBrush(QColor(255, 255, 255, 220)));
  plot->legend->setBorderPen(QPen(QColor(200, 200, 200)));
  QFont legend_font = plot->font();
  legend_font.setPointSizeF(legend_font.pointSizeF() * 0.9);
  plot->legend->setFont(legend_font);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  return plot;
}

// A curve of (x, y), decimated; NaN breaks the line. On the right axis when `right`.
void addCurve(QCustomPlot* plot, const QString& name, const std::vector<double>& x,
              const std::vector<double>& y, const QColor& color, double width, bool right) {
  if (right) {
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setTickLabelFont(plot->yAxis->tickLabelFont());
    plot->yAxis2->setLabelFont(plot->yAxis->labelFont());
  }
  QCPGraph* graph = plot->addGraph(plot->xAxis, right ? plot->yAxis2 : plot->yAxis);
  graph->setName(name);
  graph->setPen(QPen(color, width));
  CurveDecimator decimator;
  const size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) decimator.add(x[i], y[i]);
  graph->data()->set(decimator.points(), true);
}

// Points joined by a dashed line (eval losses).
void addMarkers(QCustomPlot* plot, const QString& name, const std::vector<double>& x,
                const std::vector<double>& y, const QColor& color) {
  QCPGraph* graph = plot->addGraph();
  graph->setName(name);
  graph->setLineStyle(QCPGraph::lsLine);
  graph->setPen(QPen(color, 1.2, Qt::DashLine));
  graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, 6));
  QVector<QCPGraphData> points;
  const size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) points.push_back({x[i], y[i]});
  graph->data()->set(points, true);
}

// Fits the axes to the data (positive y from 0 when `from_zero`), shows the legend when more than
// one thing is named, and lays the plot out at `size`.
void finishPlot(QCustomPlot* plot, QSize size, bool from_zero) {
  int named = 0;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    if (!plot->plottable(i)->name().isEmpty()) ++named;
  }
  plot->legend->setVisible(named > 1);
  legendBelow(plot);
  plot->rescaleAxes();
  for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
    QCPRange range = axis->range();
    if (from_zero && range.lower > 0) range.lower = 0;
    const double pad = range.size() > 0 ? range.size() * 0.06 : std::max(1.0, range.upper * 0.1);
    axis->setRange(range.lower - (from_zero && range.lower == 0 ? 0 : pad), range.upper + pad);
  }
  plot->resize(size);
  plot->replot(QCustomPlot::rpImmediateRefresh);
}

std::unique_ptr<QCustomPlot> curvePlot(const CurveChart& chart, QSize size) {
  auto plot = newReportPlot(chart.x_label, chart.y_label);
  for (const ChartSeries& s : chart.series) {
    QColor colour = seriesColor(s.colour);
    if (s.light) colour = colour.lighter(165);
    if (s.style == ChartSeries::Style::kDashedMarkers) {
      addMarkers(plot.get(), s.name, s.x, s.y, colour);
    } else {
      addCurve(plot.get(), s.name, s.x, s.y, colour, s.width, s.right);
    }
  }
  if (!chart.y2_label.isEmpty()) plot->yAxis2->setLabel(chart.y2_label);
  finishPlot(plot.get(), size, chart.from_zero);
  return plot;
}

std::unique_ptr<QCustomPlot> loadHeatmapPlot(const LoadMatrix& matrix, QSize size) {
  auto plot = std::make_unique<QCustomPlot>();
  plot->setAttribute(Qt::WA_DontShowOnScreen);
  QCPColorMap* map = makeStepHeatmap(plot.get(), QObject::tr("expert"), QObject::tr("tokens"));
  plot->setBackground(QBrush(Qt::white));
  plot->xAxis->setLabel(QObject::tr("step"));
  const int experts = static_cast<int>(matrix.experts);
  if (placeStepCells(plot.get(), map, matrix.first_step, matrix.last_step, experts)) {
    for (int b = 0; b < static_cast<int>(matrix.bins); ++b) {
      for (int e = 0; e < experts; ++e)
        map->data()->setCell(b, e, matrix.at(static_cast<size_t>(b), static_cast<size_t>(e)));
    }
  }
  map->setDataRange(QCPRange(0, std::max(matrix.max_value, 1.0)));
  plot->resize(size);
  plot->replot(QCustomPlot::rpImmediateRefresh);
  return plot;
}

std::unique_ptr<QCustomPlot> phaseStackPlot(const PhaseColumns& phases, QSize size) {
  auto plot = newReportPlot(QObject::tr("step"), QObject::tr("ms per step"));
  const PhaseBins bins = binPhases(phases, kPhaseBins);
  const QVector<double> keys(bins.centre.begin(), bins.centre.end());
  QCPBars* below = nullptr;
  std::vector<QCPBars*> stack;
  double top = 0;
  for (size_t p = 0; p < bins.names.size(); ++p) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(QString::fromStdString(bins.names[p]));
    bars->setBrush(PhaseBreakdownPlot::phaseColor(bins.names[p]));
    bars->setPen(Qt::NoPen);
    bars->setAntialiased(false);
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(bins.width);
    bars->setData(keys, QVector<double>(bins.mean_ms[p].begin(), bins.mean_ms[p].end()), true);
    if (below) bars->moveAbove(below);
    below = bars;
    stack.push_back(bars);
  }
  for (size_t b = 0; b < bins.size(); ++b) top = std::max(top, bins.totalMs(b));
  plot->legend->clearItems();
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) (*it)->addToLegend();
  plot->legend->setVisible(!stack.empty());
  legendBelow(plot.get());
  if (bins.size() > 0)
    plot->xAxis->setRange(bins.centre.front() - bins.width / 2,
                          bins.centre.back() + bins.width / 2);
  plot->yAxis->setRange(0, top > 0 ? top * 1.08 : 1);
  plot->resize(size);
  plot->replot(QCustomPlot::rpImmediateRefresh);
  return plot;
}

std::unique_ptr<QCustomPlot> rankWaitsPlot(const RankColumns& ranks, QSize size) {
  auto plot = newReportPlot(QObject::tr("rank"), QObject::tr("mean ms per step"));
  auto* group = new QCPBarsGroup(plot.get());
  group->setSpacing(2);
  const struct {
    const char* name;
    std::vector<double> RankSeries::*column;
  } kFigures[] = {{"compute", &RankSeries::compute_ms},
                  {"all-to-all wait", &RankSeries::a2a_ms},
                  {"all-reduce wait", &RankSeries::allreduce_ms}};
  double top = 0;
  int colour = 0;
  for (const auto& figure : kFigures) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(QObject::tr(figure.name));
    bars->setBrush(seriesColor(colour++));
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.25);
    bars->setBarsGroup(group);
    for (const RankSeries& r : ranks.ranks) {
      const double mean = finiteMean(r.*figure.column);
      bars->addData(static_cast<double>(r.rank), std::isnan(mean) ? 0 : mean);
      if (std::isfinite(mean)) top = std::max(top, mean);
    }
  }
  QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot->xAxis->setTicker(ticker);
  const double last = ranks.ranks.empty() ? 0 : static_cast<double>(ranks.ranks.back().rank);
  plot->xAxis->setRange(-0.6, last + 0.6);
  plot->yAxis->setRange(0, top > 0 ? top * 1.08 : 1);
  plot->legend->setVisible(true);
  legendBelow(plot.get());
  plot->resize(size);
  plot->replot(QCustomPlot::rpImmediateRefresh);
  return plot;
}

// std::visit's overload set.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

std::unique_ptr<QCustomPlot> drawReportChart(const ReportChart& chart) {
  const QSize size = chart.size;
  return std::visit(
      Overloaded{[&](const CurveChart& c) { return curvePlot(c, size); },
                 [&](const LoadHeatmapChart& c) { return loadHeatmapPlot(c.matrix, size); },
                 [&](const PhaseStackChart& c) { return phaseStackPlot(c.phases, size); },
                 [&](const RankWaitsChart& c) { return rankWaitsPlot(c.ranks, size); }},
      chart.content);
}

}  // namespace moe::ui

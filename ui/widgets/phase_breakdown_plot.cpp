#include "widgets/phase_breakdown_plot.h"
#include "widgets/heatmap_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <functional>

#include "base/telemetry/run_series.h"
#include "draw/palette.h"
#include "widgets/plot_style.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

PhaseBreakdownPlot::PhaseBreakdownPlot(QWidget* parent) : QCustomPlot(parent) {
  stylePlot(this, tr("step"), tr("ms per step"));
  setInteractions({});  // the bins cover the whole run; zooming would only enlarge them
  setMinimumHeight(180);
  xAxis->grid()->setVisible(false);

  // The legend beside the plot, not over the bars: eight phases would cover the newest steps.
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  legend->setVisible(true);
  legend->setFont(small);
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
  // Top-aligned: a legend alone in a layout cell would spread its items over the whole height.
  auto* side = new QCPLayoutGrid;
  plotLayout()->addElement(0, 1, side);
  plotLayout()->setColumnStretchFactor(1, 0.001);
  axisRect()->insetLayout()->take(legend);
  side->addElement(0, 0, legend);
  side->addElement(1, 0, new QCPLayoutElement(this));  // takes the rest of the height
  side->setRowStretchFactor(0, 0.001);
  side->setMargins(QMargins(0, 6, 0, 0));
  legend->setVisible(false);  // until there are phases

  connect(this, &QCustomPlot::mouseMove, this, &PhaseBreakdownPlot::showTooltip);
}

QColor PhaseBreakdownPlot::phaseColor(const std::string& name) {
  return moe::ui::phaseColor(name);
}

void PhaseBreakdownPlot::updateFrom(const RunSeries& series) {
  const uint64_t version = series.version();
  if (&series == source_ && version == source_version_) return;
  source_ = &series;
  source_version_ = version;
  const std::vector<std::string> old_names = bins_.names;
  bins_ = binPhases(series.phases(), kMaxBins);
  if (bins_.names != old_names) rebuildBars();

  const QVector<double> keys(bins_.centre.begin(), bins_.centre.end());
  double top = 0;
  for (size_t p = 0; p < bars_.size(); ++p) {
    bars_[p]->setWidth(bins_.width);
    bars_[p]->setData(keys, QVector<double>(bins_.mean_ms[p].begin(), bins_.mean_ms[p].end()),
                      true);
  }
  for (size_t b = 0; b < bins_.size(); ++b) top = std::max(top, bins_.totalMs(b));
  if (bins_.size() > 0) {
    xAxis->setRange(bins_.centre.front() - bins_.width / 2, bins_.centre.back() + bins_.width / 2);
  } else {
    xAxis->setRange(0, 1);
  }
  yAxis->setRange(0, top > 0 ? top * 1.08 : 1);
  replot(QCustomPlot::rpQueuedReplot);
}

void PhaseBreakdownPlot::rebuildBars() {
  for (QCPBars* bars : bars_) removePlottable(bars);
  bars_.clear();
  for (const std::string& name : bins_.names) {
    auto* bars = new QCPBars(xAxis, yAxis);
    bars->setName(QString::fromStdString(name));
    bars->setBrush(phaseColor(name));
    bars->setPen(Qt::NoPen);  // seams between neighbouring bins would hatch the plot
    bars->setAntialiased(false);
    bars->setWidthType(QCPBars::wtPlotCoords);
    if (!bars_.empty()) bars->moveAbove(bars_.back());
    bars_.push_back(bars);
  }
  // The legend reads top-down like the stack: the last phase first.
  legend->clearItems();
  for (auto it = bars_.rbegin(); it != bars_.rend(); ++it) (*it)->addToLegend();
  legend->setVisible(!bars_.empty());
}

QString PhaseBreakdownPlot::tooltipAt(double step) const {
  if (bins_.size() == 0) return {};
  // The bin whose bar covers `step`: the nearest centre, if within half a width of it.
  const auto after = std::lower_bound(bins_.centre.begin(), bins_.centre.end(), step);
  size_t bin = static_cast<size_t>(after - bins_.centre.begin());
  if (bin == bins_.size() || (bin > 0 && step - bins_.centre[bin - 1] < *after - step)) --bin;
  if (std::abs(step - bins_.centre[bin]) > bins_.width / 2) return {};

  const double first = bins_.first_step[bin], last = bins_.last_step[bin];
  const double total = bins_.totalMs(bin);
  QString text = stepSpanText(first, last) + tr(": %1 ms per step").arg(total, 0, 'f', 2);
  for (size_t p = 0; p < bins_.names.size(); ++p) {
    const double ms = bins_.mean_ms[p][bin];
    text += tr("\n%1  %2 ms (%3 %)")
                .arg(QString::fromStdString(bins_.names[p]))
                .arg(ms, 0, 'f', 2)
                .arg(total > 0 ? 100 * ms / total : 0.0, 0, 'f', 1);
  }
  return text;
}

void PhaseBreakdownPlot::showTooltip(QMouseEvent* event) {
  showPlotTooltip(this, event, tooltipAt(xAxis->pixelToCoord(event->position().x())));
}

}  // namespace moe::ui

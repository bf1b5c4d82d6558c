#include "widgets/layer_load_heatmap.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/telemetry/run_series.h"
#include "widgets/heatmap_style.h"
#include "widgets/plot_style.h"

namespace moe::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

LayerLoadHeatmap::LayerLoadHeatmap(QWidget* parent) : QCustomPlot(parent) {
  stylePlot(this, tr("expert"), tr("layer"));
  setInteractions({});  // a few layers by a few dozen experts fit whole; nothing to pan
  setMinimumHeight(180);
  xAxis->grid()->setVisible(false);
  yAxis->grid()->setVisible(false);
  auto experts = QSharedPointer<QCPAxisTickerFixed>::create();  // whole experts only
  experts->setTickStep(1);
  experts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(experts);
  xAxis->setSubTicks(false);
  yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());  // layer numbers, row by row
  yAxis->setSubTicks(false);

  map_ = new QCPColorMap(xAxis, yAxis);
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  addColorScale(this, map_, tr("load / mean"));
  // After the scale: a map takes over its scale's gradient and range when it gets one.
  map_->setGradient(balanceGradient());
  map_->setDataRange(QCPRange(0, 2));

  connect(this, &QCustomPlot::mouseMove, this, &LayerLoadHeatmap::showTooltip);
}

void LayerLoadHeatmap::updateFrom(const RunSeries& series) {
  const uint64_t version = series.version();
  if (&series == source_ && version == source_version_) return;
  source_ = &series;
  source_version_ = version;
  loads_ = series.latestExpertLoads();
  rebuild();
}

double LayerLoadHeatmap::relativeLoad(size_t row, size_t expert) const {
  if (row >= loads_.size()) return kNaN;
  const std::vector<int64_t>& counts = loads_[row].counts;
  if (expert >= counts.size()) return kNaN;
  double sum = 0;
  for (int64_t c : counts) sum += static_cast<double>(c);
  if (sum <= 0) return kNaN;
  return static_cast<double>(counts[expert]) * static_cast<double>(counts.size()) / sum;
}

void LayerLoadHeatmap::rebuild() {
  max_experts_ = 0;
  for (const auto& load : loads_) max_experts_ = std::max(max_experts_, load.counts.size());
  const int rows = static_cast<int>(loads_.size()), experts = static_cast<int>(max_experts_);
  auto* layer_ticks = static_cast<QCPAxisTickerText*>(yAxis->ticker().data());
  layer_ticks->clear();
  if (rows == 0 || experts == 0) {
    map_->data()->clear();
    map_->setVisible(false);
    xAxis->setRange(-0.5, 0.5);
    yAxis->setRange(-0.5, 0.5);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  map_->data()->setSize(experts, rows);
  map_->data()->setRange(cellCentreRange(-0.5, experts - 0.5, experts),
                         cellCentreRange(-0.5, rows - 0.5, rows));
  for (int r = 0; r < rows; ++r) {
    layer_ticks->addTick(r, QString::number(loads_[r].layer));
    for (int e = 0; e < experts; ++e) map_->data()->setCell(e, r, relativeLoad(r, e));
  }
  map_->setVisible(true);
  xAxis->setRange(-0.5, experts - 0.5);
  yAxis->setRange(-0.5, rows - 0.5);
  replot(QCustomPlot::rpQueuedReplot);
}

QString LayerLoadHeatmap::tooltipAt(double expert, double row) const {
  if (!map_->visible()) return {};
  const int e = cellIndex(expert, map_->data()->keyRange(), static_cast<int>(max_experts_));
  const int r = cellIndex(row, map_->data()->valueRange(), static_cast<int>(loads_.size()));
  if (e < 0 || r < 0) return {};
  const protocol::ExpertLoadEvent& load = loads_[r];
  if (static_cast<size_t>(e) >= load.counts.size()) {
    return tr("layer %1 has %2 experts").arg(load.layer).arg(load.counts.size());
  }
  QString text = tr("layer %1, expert %2: %3 tokens")
                     .arg(load.layer)
                     .arg(e)
                     .arg(formatTooltipCount(static_cast<double>(load.counts[e])));
  const double relative = relativeLoad(r, e);
  if (std::isfinite(relative)) text += tr(", %1x mean").arg(relative, 0, 'f', 2);
  return text + tr(" (step %1)").arg(load.step);
}

void LayerLoadHeatmap::showTooltip(QMouseEvent* event) {
  const QPointF at = event->position();
  showPlotTooltip(this, event, tooltipAt(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y())));
}

}  // namespace moe::ui

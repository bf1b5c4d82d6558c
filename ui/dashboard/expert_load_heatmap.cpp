#include "dashboard/expert_load_heatmap.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dashboard/heatmap_style.h"
#include "dashboard/run_series.h"
#include "widgets/plot_style.h"

namespace moe::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

ExpertLoadHeatmap::ExpertLoadHeatmap(QWidget* parent) : QCustomPlot(parent) {
  stylePlot(this, tr("step"), tr("expert"));
  setInteractions({});  // the map always shows the chosen range whole; hover tells the values
  setMinimumHeight(180);
  xAxis->grid()->setVisible(false);
  yAxis->grid()->setVisible(false);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();  // whole experts only
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  yAxis->setTicker(ticker);
  yAxis->setSubTicks(false);

  map_ = new QCPColorMap(xAxis, yAxis);
  map_->setInterpolate(false);  // a cell is one bin: blurring them would invent values
  map_->setTightBoundary(false);
  scale_ = addColorScale(this, map_, tr("tokens"));
  map_->setGradient(viridisGradient());  // after the scale, which would impose its own

  connect(this, &QCustomPlot::mouseMove, this, &ExpertLoadHeatmap::showTooltip);
}

void ExpertLoadHeatmap::setLayer(int64_t layer) {
  if (layer == layer_) return;
  layer_ = layer;
  stale_ = true;
}

void ExpertLoadHeatmap::setValueKind(Kind kind) {
  if (kind == kind_) return;
  kind_ = kind;
  rebuild();  // the matrix stays; only the colours change
}

void ExpertLoadHeatmap::setStepRange(const StepRange& range) {
  range_ = range;
  stale_ = true;
}

size_t ExpertLoadHeatmap::binsForWidth(int pixels) {
  return static_cast<size_t>(std::clamp(pixels / 2, 50, 600));
}

void ExpertLoadHeatmap::updateFrom(const RunSeries& series) {
  const size_t bins = binsForWidth(axisRect()->width() > 0 ? axisRect()->width() : width());
  const uint64_t version = series.version();
  if (!stale_ && &series == source_ && version == source_version_ && bins == source_bins_) return;
  matrix_ = series.loadMatrix(layer_, range_, bins, LoadValue::kCounts);
  source_ = &series;
  source_version_ = version;
  source_bins_ = bins;
  stale_ = false;
  rebuild();
}

double ExpertLoadHeatmap::cellValue(size_t bin, size_t expert) const {
  if (bin >= matrix_.bins || expert >= matrix_.experts) return kNaN;
  const double count = matrix_.at(bin, expert);
  if (kind_ == Kind::kCounts) return count;
  double sum = 0;
  for (size_t e = 0; e < matrix_.experts; ++e) sum += matrix_.at(bin, e);
  const double mean = sum / static_cast<double>(matrix_.experts);
  return mean > 0 ? count / mean : kNaN;  // no tokens at all: no share to speak of
}

void ExpertLoadHeatmap::rebuild() {
  const bool relative = kind_ == Kind::kRelative;
  map_->setGradient(relative ? balanceGradient() : viridisGradient());
  scale_->axis()->setLabel(relative ? tr("load / mean") : tr("tokens"));
  const int bins = static_cast<int>(matrix_.bins), experts = static_cast<int>(matrix_.experts);
  if (bins == 0 || experts == 0) {
    map_->data()->clear();
    map_->setVisible(false);
    xAxis->setRange(0, 1);
    yAxis->setRange(-0.5, 0.5);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  // Cells centred on their bins' middle steps: the map's edges then fall half a bin before the
  // first step and after the last, where the bins' steps end.
  const double first_centre = (matrix_.first_step.front() + matrix_.last_step.front()) / 2;
  const double last_centre = (matrix_.first_step.back() + matrix_.last_step.back()) / 2;
  QCPRange keys(first_centre, last_centre);
  if (bins == 1) keys = QCPRange(matrix_.first_step.front() - 0.5, matrix_.last_step.front() + 0.5);
  QCPRange values = experts == 1 ? QCPRange(-0.5, 0.5) : QCPRange(0, experts - 1);
  map_->data()->setSize(bins, experts);
  map_->data()->setRange(keys, values);
  for (int b = 0; b < bins; ++b) {
    double scale = 1;  // counts as they are, or over the bin's mean (cellValue, once per bin)
    if (relative) {
      double sum = 0;
      for (int e = 0; e < experts; ++e) sum += matrix_.at(b, e);
      scale = sum > 0 ? experts / sum : kNaN;
    }
    for (int e = 0; e < experts; ++e) map_->data()->setCell(b, e, matrix_.at(b, e) * scale);
  }
  map_->setVisible(true);
  map_->setDataRange(relative ? QCPRange(0, 2) : QCPRange(0, std::max(matrix_.max_value, 1.0)));
  const double half_cell = bins > 1 ? (last_centre - first_centre) / (2.0 * (bins - 1)) : 0;
  xAxis->setRange(keys.lower - half_cell, keys.upper + half_cell);
  yAxis->setRange(-0.5, experts - 0.5);
  replot(QCustomPlot::rpQueuedReplot);
}

QString ExpertLoadHeatmap::tooltipAt(double step, double expert) const {
  if (!map_->visible()) return {};
  const int bin = cellIndex(step, map_->data()->keyRange(), static_cast<int>(matrix_.bins));
  const int e = cellIndex(expert, map_->data()->valueRange(), static_cast<int>(matrix_.experts));
  if (bin < 0 || e < 0) return {};
  const double first = matrix_.first_step[bin], last = matrix_.last_step[bin];
  const QString steps = first == last
                            ? tr("step %1").arg(first, 0, 'f', 0)
                            : tr("steps %1–%2").arg(first, 0, 'f', 0).arg(last, 0, 'f', 0);
  const double count = matrix_.at(bin, e);
  const double mean_share = [&] {
    double sum = 0;
    for (size_t i = 0; i < matrix_.experts; ++i) sum += matrix_.at(bin, i);
    return sum > 0 ? count * static_cast<double>(matrix_.experts) / sum : kNaN;
  }();
  QString text = tr("expert %1, %2: %3 tokens").arg(e).arg(steps, formatCount(count));
  if (std::isfinite(mean_share)) text += tr(" (%1x mean)").arg(mean_share, 0, 'f', 1);
  return text;
}

void ExpertLoadHeatmap::showTooltip(QMouseEvent* event) {
  const QPointF at = event->position();
  showPlotTooltip(this, event,
                    tooltipAt(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y())));
}

}  // namespace moe::ui

#include "widgets/expert_load_heatmap.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/telemetry/run_series.h"
#include "widgets/heatmap_style.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

ExpertLoadHeatmap::ExpertLoadHeatmap(QWidget* parent) : QCustomPlot(parent) {
  map_ = makeStepHeatmap(this, tr("expert"), tr("tokens"));
  scale_ = map_->colorScale();
  setMinimumHeight(180);

  connect(this, &QCustomPlot::mouseMove, this, &ExpertLoadHeatmap::showTooltip);
}

void ExpertLoadHeatmap::setLayer(int64_t layer) {
  if (layer == layer_) return;
  layer_ = layer;
  source_.invalidate();
}

void ExpertLoadHeatmap::setValueKind(Kind kind) {
  if (kind == kind_) return;
  kind_ = kind;
  rebuild();  // the matrix stays; only the colours change
}

void ExpertLoadHeatmap::setStepRange(const StepRange& range) {
  range_ = range;
  source_.invalidate();
}

size_t ExpertLoadHeatmap::binsForWidth(int pixels) {
  return static_cast<size_t>(std::clamp(pixels / 2, 50, 600));
}

void ExpertLoadHeatmap::updateFrom(const RunSeries& series) {
  const size_t bins = binsForWidth(axisRect()->width() > 0 ? axisRect()->width() : width());
  if (!source_.changed(series, bins)) return;
  matrix_ = series.loadMatrix(layer_, range_, bins, LoadValue::kCounts);
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
  if (!placeStepCells(this, map_, matrix_.first_step, matrix_.last_step, experts)) {
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  for (int b = 0; b < bins; ++b) {
    double scale = 1;  // counts as they are, or over the bin's mean (cellValue, once per bin)
    if (relative) {
      double sum = 0;
      for (int e = 0; e < experts; ++e) sum += matrix_.at(b, e);
      scale = sum > 0 ? experts / sum : kNaN;
    }
    for (int e = 0; e < experts; ++e) map_->data()->setCell(b, e, matrix_.at(b, e) * scale);
  }
  map_->setDataRange(relative ? QCPRange(0, 2) : QCPRange(0, std::max(matrix_.max_value, 1.0)));
  replot(QCustomPlot::rpQueuedReplot);
}

QString ExpertLoadHeatmap::tooltipAt(double step, double expert) const {
  const auto cell = stepCellAt(map_, step, expert);
  if (!cell) return {};
  const int bin = cell->first, e = cell->second;
  const QString steps = stepSpanText(matrix_.first_step[bin], matrix_.last_step[bin]);
  const double count = matrix_.at(bin, e);
  const double mean_share = [&] {
    double sum = 0;
    for (size_t i = 0; i < matrix_.experts; ++i) sum += matrix_.at(bin, i);
    return sum > 0 ? count * static_cast<double>(matrix_.experts) / sum : kNaN;
  }();
  QString text = tr("expert %1, %2: %3 tokens").arg(e).arg(steps, formatTooltipCount(count));
  if (std::isfinite(mean_share)) text += tr(" (%1x mean)").arg(mean_share, 0, 'f', 1);
  return text;
}

void ExpertLoadHeatmap::showTooltip(QMouseEvent* event) {
  const QPointF at = event->position();
  showPlotTooltip(this, event, tooltipAt(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y())));
}

}  // namespace moe::ui

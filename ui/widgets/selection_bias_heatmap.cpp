#include "widgets/selection_bias_heatmap.h"

#include <cmath>
#include <limits>

#include "base/telemetry/run_series.h"
#include "widgets/expert_load_heatmap.h"
#include "widgets/heatmap_style.h"

namespace moe::ui {

SelectionBiasHeatmap::SelectionBiasHeatmap(QWidget* parent) : QCustomPlot(parent) {
  map_ = makeStepHeatmap(this, tr("expert"), tr("bias − mean"));
  scale_ = map_->colorScale();
  map_->setGradient(biasGradient());
  setMinimumHeight(150);
  connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    const QPointF at = event->position();
    showPlotTooltip(this, event,
                    tooltipAt(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y())));
  });
}

void SelectionBiasHeatmap::setLayer(int64_t layer) {
  if (layer == layer_) return;
  layer_ = layer;
  source_.invalidate();
}

void SelectionBiasHeatmap::updateFrom(const RunSeries& series) {
  const size_t bins =
      ExpertLoadHeatmap::binsForWidth(axisRect()->width() > 0 ? axisRect()->width() : width());
  if (!source_.changed(series, bins)) return;
  matrix_ = series.loadMatrix(layer_, StepRange::all(), bins, LoadValue::kBias);
  has_bias_ = false;
  for (float v : matrix_.values) has_bias_ = has_bias_ || !std::isnan(v);
  rebuild();
}

namespace {

// The mean bias of a bin's experts (NaN when the bin has none).
double binMean(const LoadMatrix& m, size_t bin) {
  double sum = 0;
  for (size_t e = 0; e < m.experts; ++e) sum += m.at(bin, e);
  return sum / static_cast<double>(m.experts);
}

QString signedText(double v) {
  return (v > 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'g', 3);
}

}  // namespace

double SelectionBiasHeatmap::cellValue(size_t bin, size_t expert) const {
  if (bin >= matrix_.bins || expert >= matrix_.experts)
    return std::numeric_limits<double>::quiet_NaN();
  return matrix_.at(bin, expert) - binMean(matrix_, bin);
}

void SelectionBiasHeatmap::rebuild() {
  const int bins = static_cast<int>(matrix_.bins), experts = static_cast<int>(matrix_.experts);
  if (!has_bias_ || !placeStepCells(this, map_, matrix_.first_step, matrix_.last_step, experts)) {
    map_->data()->clear();
    map_->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  double extent = 0;
  for (int b = 0; b < bins; ++b) {
    for (int e = 0; e < experts; ++e) {
      const double v = cellValue(b, e);
      map_->data()->setCell(b, e, v);
      if (std::abs(v) > extent) extent = std::abs(v);
    }
  }
  // Symmetric, so white is the mean whatever the run's biases; a start at 0 still has a scale.
  if (extent == 0) extent = 1e-3;
  map_->setDataRange(QCPRange(-extent, extent));
  replot(QCustomPlot::rpQueuedReplot);
}

QString SelectionBiasHeatmap::tooltipAt(double step, double expert) const {
  const auto cell = stepCellAt(map_, step, expert);
  if (!cell) return {};
  const int bin = cell->first, e = cell->second;
  const double bias = matrix_.at(bin, e);
  if (std::isnan(bias)) return {};
  const QString steps = stepSpanText(matrix_.first_step[bin], matrix_.last_step[bin]);
  return tr("expert %1, %2: bias %3 (%4 vs mean)")
      .arg(e)
      .arg(steps, QString::number(bias, 'g', 3), signedText(cellValue(bin, e)));
}

}  // namespace moe::ui

#include "widgets/step_heatmap.h"

#include "base/telemetry/run_series.h"
#include "widgets/heatmap_style.h"
#include "widgets/plot_style.h"

namespace moe::ui {

bool StepHeatmapSource::changed(const RunSeries& series, size_t bins) {
  const uint64_t version = series.version();
  if (!stale_ && &series == series_ && version == version_ && bins == bins_) return false;
  series_ = &series;
  version_ = version;
  bins_ = bins;
  stale_ = false;
  return true;
}

QCPColorMap* makeStepHeatmap(QCustomPlot* plot, const QString& row_label,
                             const QString& scale_label) {
  stylePlot(plot, QObject::tr("step"), row_label);
  plot->setInteractions({});
  plot->xAxis->grid()->setVisible(false);
  plot->yAxis->grid()->setVisible(false);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();  // whole rows only
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot->yAxis->setTicker(ticker);
  plot->yAxis->setSubTicks(false);

  auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
  map->setInterpolate(false);  // a cell is one bin: blurring them would invent values
  map->setTightBoundary(false);
  addColorScale(plot, map, scale_label);
  map->setGradient(viridisGradient());  // after the scale, which would impose its own
  return map;
}

bool placeStepCells(QCustomPlot* plot, QCPColorMap* map, const std::vector<double>& first_step,
                    const std::vector<double>& last_step, int rows) {
  const int bins = static_cast<int>(first_step.size());
  if (bins == 0 || rows == 0) {
    map->data()->clear();
    map->setVisible(false);
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(-0.5, 0.5);
    return false;
  }
  const double first_centre = (first_step.front() + last_step.front()) / 2;
  const double last_centre = (first_step.back() + last_step.back()) / 2;
  QCPRange keys(first_centre, last_centre);
  if (bins == 1) keys = QCPRange(first_step.front() - 0.5, last_step.front() + 0.5);
  const QCPRange values = rows == 1 ? QCPRange(-0.5, 0.5) : QCPRange(0, rows - 1);
  map->data()->setSize(bins, rows);
  map->data()->setRange(keys, values);
  map->setVisible(true);
  const double half_cell = bins > 1 ? (last_centre - first_centre) / (2.0 * (bins - 1)) : 0;
  plot->xAxis->setRange(keys.lower - half_cell, keys.upper + half_cell);
  plot->yAxis->setRange(-0.5, rows - 0.5);
  return true;
}

std::optional<std::pair<int, int>> stepCellAt(const QCPColorMap* map, double step, double row) {
  if (!map->visible()) return std::nullopt;
  const QCPColorMapData* data = map->data();
  const int bin = cellIndex(step, data->keyRange(), data->keySize());
  const int r = cellIndex(row, data->valueRange(), data->valueSize());
  if (bin < 0 || r < 0) return std::nullopt;
  return std::make_pair(bin, r);
}

QString stepSpanText(double first, double last) {
  return first == last ? QObject::tr("step %1").arg(first, 0, 'f', 0)
                       : QObject::tr("steps %1–%2").arg(first, 0, 'f', 0).arg(last, 0, 'f', 0);
}

}  // namespace moe::ui

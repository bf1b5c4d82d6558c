#include "widgets/rank_heatmap.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/telemetry/run_series.h"
#include "widgets/expert_load_heatmap.h"
#include "widgets/heatmap_style.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

namespace {

// The median of a bin's cells (its ranks' mean step times), NaN cells left out.
double binMedian(const RankMatrix& m, size_t bin) {
  std::vector<double> values;
  for (size_t i = 0; i < m.ranks.size(); ++i) {
    if (std::isfinite(m.at(bin, i))) values.push_back(m.at(bin, i));
  }
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

RankHeatmap::RankHeatmap(QWidget* parent) : QCustomPlot(parent) {
  map_ = makeStepHeatmap(this, tr("rank"), tr("step ms"));
  connect(this, &QCustomPlot::mouseMove, this, &RankHeatmap::showTooltip);
}

void RankHeatmap::updateFrom(const RunSeries& series) {
  const size_t bins =
      ExpertLoadHeatmap::binsForWidth(axisRect()->width() > 0 ? axisRect()->width() : width());
  const uint64_t version = series.version();
  if (&series == source_ && version == source_version_ && bins == source_bins_) return;
  matrix_ = series.rankMatrix(StepRange::all(), bins);
  source_ = &series;
  source_version_ = version;
  source_bins_ = bins;
  rebuild();
}

void RankHeatmap::rebuild() {
  const int ranks = static_cast<int>(matrix_.ranks.size());
  if (placeStepCells(this, map_, matrix_.first_step, matrix_.last_step, ranks)) {
    for (int b = 0; b < static_cast<int>(matrix_.bins); ++b) {
      for (int i = 0; i < ranks; ++i) map_->data()->setCell(b, i, matrix_.at(b, i));
    }
    // From the fastest cell to the slowest, not from 0: a straggler 30 % slower than the rest
    // must stand out, not differ by a shade.
    double lowest = matrix_.max_value;
    for (float v : matrix_.values) {
      if (std::isfinite(v)) lowest = std::min<double>(lowest, v);
    }
    if (!(matrix_.max_value - lowest > 1e-6)) lowest = 0;
    map_->setDataRange(QCPRange(lowest, std::max(matrix_.max_value, 1e-3)));
  }
  replot(QCustomPlot::rpQueuedReplot);
}

QString RankHeatmap::tooltipAt(double step, double row) const {
  if (!map_->visible()) return {};
  const int bin = cellIndex(step, map_->data()->keyRange(), static_cast<int>(matrix_.bins));
  const int i = cellIndex(row, map_->data()->valueRange(), static_cast<int>(matrix_.ranks.size()));
  if (bin < 0 || i < 0) return {};
  QString who = tr("rank %1").arg(matrix_.ranks[i]);
  if (!matrix_.hosts[i].empty())
    who += QString(" (%1)").arg(QString::fromStdString(matrix_.hosts[i]));
  const double ms = matrix_.at(bin, i);
  QString text = tr("%1, %2: %3 ms")
                     .arg(who, stepSpanText(matrix_.first_step[bin], matrix_.last_step[bin]),
                          std::isfinite(ms) ? QString::number(ms, 'f', 1) : QStringLiteral("–"));
  const double median = binMedian(matrix_, static_cast<size_t>(bin));
  if (std::isfinite(ms) && median > 0) text += tr(" (%1x median)").arg(ms / median, 0, 'f', 2);
  return text;
}

void RankHeatmap::showTooltip(QMouseEvent* event) {
  const QPointF at = event->position();
  showPlotTooltip(this, event, tooltipAt(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y())));
}

}  // namespace moe::ui

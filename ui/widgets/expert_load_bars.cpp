#include "widgets/expert_load_bars.h"

#include <algorithm>

#include "base/telemetry/run_series.h"

namespace moe::ui {

ExpertLoadBars::ExpertLoadBars(QWidget* parent) : QCustomPlot(parent) {
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  bars_ = buildKeptDroppedBars(this, tr("tokens routed"), tr("dropped (over capacity)"), small);
  setMinimumHeight(180);
}

void ExpertLoadBars::setLayer(int64_t layer) {
  if (layer == layer_) return;
  layer_ = layer;
  stale_ = true;
}

QString ExpertLoadBars::title() const {
  return bars_.title->text();
}

void ExpertLoadBars::clearBars() {
  bars_.clear();
  bars_.title->setText(tr("layer %1 · no expert load yet").arg(layer_));
}

void ExpertLoadBars::updateFrom(const RunSeries& series) {
  const uint64_t version = series.version();
  if (!stale_ && &series == source_ && version == source_version_) return;
  source_ = &series;
  source_version_ = version;
  stale_ = false;
  const auto load = series.expertLoad(layer_);
  if (!load || load->counts.empty()) {
    clearBars();
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  // Kept is min(count, capacity) (docs/ROUTING.md, "Dropping"). A dropless layer reports its
  // busiest expert's demand as its capacity, so it needs no case of its own; capacity 0 is real
  // (a factor too small for one slot) and drops every choice.
  const double capacity = static_cast<double>(std::max<int64_t>(load->capacity, 0));
  QVector<double> counts, kept;
  for (const int64_t count : load->counts) {
    counts << static_cast<double>(count);
    kept << std::min(counts.back(), capacity);
  }
  const double top = bars_.show(counts, kept, capacity);
  yAxis->setRange(0, top * 1.08 + 1);
  const QString share = tr("%1 % dropped").arg(load->dropped_frac * 100, 0, 'f', 1);
  bars_.title->setText(tr("layer %1 · step %2 · %3").arg(load->layer).arg(load->step).arg(share));
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace moe::ui

#include "whatif/routing_bars.h"

#include <algorithm>

namespace moe::ui {

RoutingBars::RoutingBars(const QString& heading, QWidget* parent)
    : QCustomPlot(parent), heading_(heading) {
  bars_ = buildKeptDroppedBars(this, tr("choices routed"), tr("dropped"),
                               QFont(font().family(), font().pointSize(), QFont::Bold));
  setMinimumHeight(220);
  showMessage(tr("waiting for moe-train replay"));
}

QString RoutingBars::title() const {
  return bars_.title->text();
}

void RoutingBars::showMessage(const QString& message) {
  bars_.clear();
  highest_ = 0;
  bars_.title->setText(heading_ + " · " + message);
  replot(QCustomPlot::rpQueuedReplot);
}

void RoutingBars::showAnswer(const ReplayAnswer& answer, const QString& setting) {
  // The answer's own kept counts: what the engine kept under this setting.
  QVector<double> counts, kept;
  for (size_t e = 0; e < answer.counts.size(); ++e) {
    counts << static_cast<double>(answer.counts[e]);
    kept << (e < answer.kept.size() ? static_cast<double>(answer.kept[e]) : 0);
  }
  highest_ = bars_.show(counts, kept, static_cast<double>(std::max<int64_t>(answer.capacity, 0)));
  bars_.title->setText(tr("%1 · %2 · %3 % dropped")
                           .arg(heading_, setting)
                           .arg(answer.dropped_frac * 100, 0, 'f', 1));
}

void RoutingBars::setTop(double top) {
  yAxis->setRange(0, top * 1.08 + 1);
  replot(QCustomPlot::rpImmediateRefresh);
}

}  // namespace moe::ui

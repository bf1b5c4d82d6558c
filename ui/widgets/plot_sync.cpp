#include "widgets/plot_sync.h"

#include "widgets/time_series_plot.h"

namespace moe::ui {

PlotSync::PlotSync(QObject* parent) : QObject(parent) {}

void PlotSync::add(TimeSeriesPlot* plot) {
  if (!plot || plots().contains(plot)) return;
  // A group the user has zoomed: the newcomer joins at the same x-range.
  for (TimeSeriesPlot* other : plots()) {
    if (!other->followsData()) {
      plot->stopFollowing();
      plot->xAxis->setRange(other->xAxis->range());
      plot->requestReplot();
      break;
    }
  }
  plots_.append(plot);

  connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this, plot](const QCPRange& range) {
            if (syncing_) return;
            syncing_ = true;
            for (TimeSeriesPlot* other : plots()) {
              if (other == plot || other->xAxis->range() == range) continue;
              other->xAxis->setRange(range);
              other->requestReplot();
            }
            syncing_ = false;
          });
  connect(plot, &TimeSeriesPlot::followChanged, this, [this, plot](bool follows) {
    if (syncing_) return;
    if (follows) {  // a double-click (or resetView) on one resets the group
      resetViews();
      return;
    }
    // The user zoomed one: the others must not rescale x away from that range.
    syncing_ = true;
    for (TimeSeriesPlot* other : plots())
      if (other != plot) other->stopFollowing();
    syncing_ = false;
  });
  connect(plot, &TimeSeriesPlot::hoverMoved, this, [this, plot](double x) {
    for (TimeSeriesPlot* other : plots())
      if (other != plot) other->showHover(x);
  });
  connect(plot, &QObject::destroyed, this, [this](QObject* gone) {
    plots_.removeIf([gone](const QPointer<TimeSeriesPlot>& p) {
      return p.isNull() || static_cast<QObject*>(p.data()) == gone;
    });
  });
}

void PlotSync::remove(TimeSeriesPlot* plot) {
  if (!plot) return;
  disconnect(plot, nullptr, this, nullptr);
  disconnect(plot->xAxis, nullptr, this, nullptr);
  plots_.removeIf([plot](const QPointer<TimeSeriesPlot>& p) { return p.data() == plot; });
}

QList<TimeSeriesPlot*> PlotSync::plots() const {
  QList<TimeSeriesPlot*> live;
  for (const QPointer<TimeSeriesPlot>& p : plots_)
    if (p) live.append(p.data());
  return live;
}

void PlotSync::resetViews() {
  syncing_ = true;  // each plot fits its own data; no echo of the others' ranges
  for (TimeSeriesPlot* plot : plots()) plot->resetView();
  syncing_ = false;
  // Then share one x-range (the union), so the group lines up.
  QList<TimeSeriesPlot*> live = plots();
  if (live.isEmpty()) return;
  QCPRange x = live.first()->xAxis->range();
  for (TimeSeriesPlot* plot : live) x.expand(plot->xAxis->range());
  live.first()->xAxis->setRange(x);
  live.first()->requestReplot();
}

}  // namespace moe::ui

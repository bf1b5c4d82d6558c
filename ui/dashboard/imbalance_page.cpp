#include "dashboard/imbalance_page.h"

#include <QGridLayout>

#include <limits>
#include "base/telemetry/run_series.h"

#include "widgets/plot_export.h"
#include "widgets/plot_style.h"
#include "widgets/plot_sync.h"

namespace moe::ui {

namespace {
constexpr int kMinPlotHeight = 120;  // three rows of plots still fit a 768-pixel-high screen
}

ImbalancePage::ImbalancePage(PlotSync* sync, QWidget* parent) : QWidget(parent) {
  addMetric(tr("load entropy (1 = even)"), "load-entropy", &LayerColumns::load_entropy);
  addMetric(tr("router entropy"), "router-entropy", &LayerColumns::router_entropy);
  addMetric(tr("max / mean load"), "max-over-mean", &LayerColumns::max_over_mean);
  addMetric(tr("cv of load"), "load-cv", &LayerColumns::cv);
  addMetric(tr("dropped tokens (%)"), "dropped", &LayerColumns::dropped_frac, 100);
  addMetric(tr("dead experts"), "dead-experts", &LayerColumns::dead_experts);

  // The collapse threshold (load entropy 0.5), so a falling curve is read against it.
  TimeSeriesPlot* entropy = plots_.front();
  auto* threshold = new QCPItemStraightLine(entropy);
  threshold->point1->setCoords(0, 0.5);
  threshold->point2->setCoords(1, 0.5);
  threshold->setPen(QPen(QColor(185, 28, 28, 150), 1, Qt::DashLine));

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  for (int i = 0; i < plots_.size(); ++i) {
    grid->addWidget(plots_[i], i / 2, i % 2);
    sync->add(plots_[i]);
  }
}

void ImbalancePage::addMetric(const QString& y_label, const QString& export_name,
                              std::vector<double> LayerColumns::*column, double scale) {
  auto* plot = new TimeSeriesPlot(y_label, this);
  plot->setMinimumHeight(kMinPlotHeight);
  installPlotMenu(plot, export_name);
  plots_.push_back(plot);
  metrics_.push_back({plot, column, scale});
}

int ImbalancePage::curveFor(const Metric& metric, int64_t layer) {
  if (!layer_order_.contains(layer))
    layer_order_.insert(layer, static_cast<int>(layer_order_.size()));
  const int index = layer_order_.value(layer);
  while (metric.plot->curveCount() <= index) {
    const int n = metric.plot->curveCount();
    const int64_t curve_layer = layer_order_.key(n);
    metric.plot->addCurve(tr("layer %1").arg(curve_layer), QPen(seriesColor(n), 1.5));
    metric.plot->shareKeys(n, keysFor(curve_layer));
  }
  return index;
}

std::shared_ptr<PlotKeys> ImbalancePage::keysFor(int64_t layer) {
  std::shared_ptr<PlotKeys>& keys = layer_keys_[layer];
  if (!keys) {
    keys = std::make_shared<PlotKeys>();
    keys->reserve(reserved_rows_);
  }
  return keys;
}

void ImbalancePage::apply(const RunSnapshot& delta) {
  if (delta.reset) {
    reserved_rows_ = static_cast<qsizetype>(expectedRows(delta.info.config));
    for (TimeSeriesPlot* plot : plots_) {
      plot->removeCurves();
      plot->reserveRows(reserved_rows_);
    }
    layer_order_.clear();
    layer_keys_.clear();
  }
  for (const LayerColumns& layer : delta.layers) {
    const double from = delta.reset ? -std::numeric_limits<double>::infinity() : layer.replace_from;
    // The layer's keys once for all six plots, then each plot's values.
    keysFor(layer.layer)->replaceFrom(from, toQVector(layer.step), toQVector(layer.t));
    for (const Metric& metric : metrics_) {
      QVector<double> values = toQVector(layer.*metric.column);
      for (double& v : values) v *= metric.scale;
      metric.plot->replaceValuesFrom(curveFor(metric, layer.layer), from, values);
    }
  }
  // One legend says which colour is which layer for all six plots; the rest would cover data.
  for (TimeSeriesPlot* plot : plots_.mid(1)) plot->legend->setVisible(false);
  for (TimeSeriesPlot* plot : plots_) plot->refreshView();
}

}  // namespace moe::ui

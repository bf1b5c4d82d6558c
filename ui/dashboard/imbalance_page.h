#pragma once
// The dashboard's imbalance page: how evenly each MoE layer spreads its tokens over time — cv,
// max/mean, dropped fraction, load entropy, router entropy and dead experts (docs/ROUTING.md, "Load
// metrics"), one curve per layer in each plot, zoomed together with the training plots.
#include <QList>
#include <QMap>
#include <QWidget>

#include <memory>

#include "base/telemetry/series_columns.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

class PlotSync;

class ImbalancePage : public QWidget {
  Q_OBJECT

 public:
  explicit ImbalancePage(PlotSync* sync, QWidget* parent = nullptr);

  void apply(const RunSnapshot& delta);
  QList<TimeSeriesPlot*> plots() const { return plots_; }

 private:
  struct Metric {
    TimeSeriesPlot* plot;
    std::vector<double> LayerColumns::*column;
    double scale;  // e.g. 100 for a fraction shown in percent
  };
  void addMetric(const QString& y_label, const QString& export_name,
                 std::vector<double> LayerColumns::*column, double scale = 1);
  int curveFor(const Metric& metric, int64_t layer);
  // The step and time column the six plots' curves of one layer share.
  std::shared_ptr<PlotKeys> keysFor(int64_t layer);

  QList<TimeSeriesPlot*> plots_;
  std::vector<Metric> metrics_;
  QMap<int64_t, int> layer_order_;  // layer -> its colour and curve index, in order seen
  QMap<int64_t, std::shared_ptr<PlotKeys>> layer_keys_;
  qsizetype reserved_rows_ = 0;  // the run's expected rows
};

}  // namespace moe::ui

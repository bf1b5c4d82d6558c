#include "runs/compare_view.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

#include "base/run/run_files.h"
#include "base/telemetry/telemetry_feed.h"
#include "dashboard/dashboard_controls.h"
#include "runs/compare_metrics.h"
#include "runs/config_diff_view.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {
constexpr int kRefreshMs = 250;  // a whole-series rebuild per run: a few times a second is plenty
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  controls_ = new DashboardControls(this);
  metric_ = new QComboBox(this);
  metric_->addItems(compareMetricNames());
  metric_->setCurrentIndex(QSettings().value("compare/metric", 1).toInt());
  plot_ = new TimeSeriesPlot(metric_->currentText(), this);
  installPlotMenu(plot_, "compare");
  diff_ = new ConfigDiffView(this);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Metric"), this));
  top->addWidget(metric_);
  top->addSpacing(14);
  top->addWidget(controls_, 1);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(plot_);
  splitter->addWidget(diff_);
  splitter->setSizes({520, 260});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);

  plot_->setXMode(controls_->xMode());
  plot_->setLogY(controls_->logY());
  auto redraw = [this] {
    dirty_ = true;
    refresh();
    plot_->resetView();
  };
  connect(metric_, &QComboBox::currentIndexChanged, this, [this, redraw](int index) {
    QSettings().setValue("compare/metric", index);
    plot_->yAxis->setLabel(metric_->currentText());
    redraw();
  });
  connect(controls_, &DashboardControls::smoothingChanged, this, redraw);
  connect(controls_, &DashboardControls::xModeChanged, this, [this](auto mode) {
    plot_->setXMode(mode);
    plot_->resetView();
  });
  connect(controls_, &DashboardControls::logYChanged, plot_, &TimeSeriesPlot::setLogY);
  connect(controls_, &DashboardControls::resetViewRequested, plot_, &TimeSeriesPlot::resetView);
  timer_.setInterval(kRefreshMs);
  connect(&timer_, &QTimer::timeout, this, &CompareView::refresh);
  timer_.start();
}

void CompareView::addRun(const QString& title, std::shared_ptr<RunSeries> series) {
  runs_.push_back({title, std::move(series), 0, false, true});
  const int n = static_cast<int>(runs_.size()) - 1;
  plot_->addCurve(title, QPen(seriesColor(n), 1.8));  // drawn at the next refresh (stale)
}

void CompareView::addRunDirectory(const QString& run_dir) {
  auto* feed = new TelemetryFeed(this);
  addRun(QFileInfo(run_dir).fileName(), feed->series());
  feed->loadFile(runFile(run_dir, run_layout::kMetrics));
}

void CompareView::refresh() {
  bool config_changed = false;
  for (Run& run : runs_) {
    const uint64_t version = run.series->version();
    if (version == run.drawn_version) continue;
    run.drawn_version = version;
    run.stale = true;
    if (!run.started && run.series->info().started) config_changed = run.started = true;
  }
  if (dirty_)  // the metric or the smoothing changed: every curve
    for (Run& run : runs_) run.stale = true;
  dirty_ = false;
  rebuildCurves();
  if (config_changed) rebuildDiff();
}

// Only the runs whose telemetry changed: a finished run is not re-read while another trains.
void CompareView::rebuildCurves() {
  const CompareMetric metric = compareMetricAt(metric_->currentIndex());
  bool any = false;
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (!runs_[i].stale) continue;
    runs_[i].stale = false;
    any = true;
    plot_->setRows(static_cast<int>(i),
                   compareRows(*runs_[i].series, metric, controls_->smoothing()));
  }
  if (any) plot_->refreshView();
}

// The diff uses run_start's resolved config: every run's full settings, defaults included.
void CompareView::rebuildDiff() {
  QStringList titles;
  std::vector<nlohmann::json> configs;
  for (const Run& run : runs_) {
    const RunInfo info = run.series->info();
    titles << (info.run_id.empty() ? run.title : QString::fromStdString(info.run_id));
    configs.push_back(info.config);
  }
  diff_->setConfigs(titles, configs);
}

}  // namespace moe::ui

#include "dashboard/expert_load_bars.h"

#include <algorithm>

#include "telemetry/run_series.h"
#include "widgets/plot_style.h"

namespace moe::ui {

namespace {
const QColor kKeptColor = seriesColor(0);      // blue
const QColor kOverflowColor = seriesColor(3);  // vermillion
}  // namespace

ExpertLoadBars::ExpertLoadBars(QWidget* parent) : QCustomPlot(parent) {
  stylePlot(this, tr("expert"), tr("tokens routed"));
  setInteractions({});  // every expert fits; the axes follow the data
  setMinimumHeight(180);
  xAxis->grid()->setVisible(false);
  auto experts = QSharedPointer<QCPAxisTickerFixed>::create();
  experts->setTickStep(1);
  experts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(experts);
  xAxis->setSubTicks(false);

  kept_ = new QCPBars(xAxis, yAxis);
  kept_->setName(tr("kept"));
  kept_->setBrush(kKeptColor);
  kept_->setPen(Qt::NoPen);
  kept_->setWidth(0.8);
  overflow_ = new QCPBars(xAxis, yAxis);
  overflow_->setName(tr("dropped (over capacity)"));
  overflow_->setBrush(kOverflowColor);
  overflow_->setPen(Qt::NoPen);
  overflow_->setWidth(0.8);
  overflow_->moveAbove(kept_);
  capacity_ = addGraph();
  capacity_->setName(tr("capacity"));
  capacity_->setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));

  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  // Title, then the legend in one line, above the bars: inside the axis rect it would cover
  // the highest bar, which is the one to look at.
  plotLayout()->insertRow(0);
  plotLayout()->insertRow(0);
  title_ = new QCPTextElement(this, QString(), small);
  plotLayout()->addElement(0, 0, title_);
  legend->setVisible(true);
  legend->setFont(small);
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(0);  // one row
  legend->setColumnSpacing(12);
  axisRect()->insetLayout()->take(legend);
  plotLayout()->addElement(1, 0, legend);
  plotLayout()->setRowSpacing(0);
  for (int row : {0, 1}) plotLayout()->setRowStretchFactor(row, 0.001);
}

void ExpertLoadBars::setLayer(int64_t layer) {
  if (layer == layer_) return;
  layer_ = layer;
  stale_ = true;
}

QString ExpertLoadBars::title() const {
  return title_->text();
}

void ExpertLoadBars::clearBars() {
  kept_->data()->clear();
  overflow_->data()->clear();
  capacity_->data()->clear();
  title_->setText(tr("layer %1 · no expert load yet").arg(layer_));
  xAxis->setRange(-0.6, 0.6);
  yAxis->setRange(0, 1);
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
  const size_t n = load->counts.size();
  QVector<double> experts(n), kept(n), overflow(n);
  double top = capacity;
  for (size_t e = 0; e < n; ++e) {
    const double count = static_cast<double>(load->counts[e]);
    experts[e] = static_cast<double>(e);
    kept[e] = std::min(count, capacity);
    overflow[e] = count - kept[e];
    top = std::max(top, count);
  }
  kept_->setData(experts, kept, true);
  overflow_->setData(experts, overflow, true);
  const double last = static_cast<double>(n) - 0.5;
  capacity_->setData({-0.5, last}, {capacity, capacity}, true);
  xAxis->setRange(-0.6, last + 0.1);
  yAxis->setRange(0, top * 1.08 + 1);
  const QString share = tr("%1 % dropped").arg(load->dropped_frac * 100, 0, 'f', 1);
  title_->setText(tr("layer %1 · step %2 · %3").arg(load->layer).arg(load->step).arg(share));
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace moe::ui

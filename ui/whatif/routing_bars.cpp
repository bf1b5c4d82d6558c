#include "whatif/routing_bars.h"

#include <algorithm>

#include "widgets/plot_style.h"

namespace moe::ui {

namespace {
const QColor kKeptColor = seriesColor(0);     // blue, as the dashboard's Expert load bars
const QColor kDroppedColor = seriesColor(3);  // vermillion
}  // namespace

RoutingBars::RoutingBars(const QString& heading, QWidget* parent)
    : QCustomPlot(parent), heading_(heading) {
  stylePlot(this, tr("expert"), tr("choices routed"));
  setInteractions({});  // every expert fits; the axes follow the data
  setMinimumHeight(220);
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
  dropped_ = new QCPBars(xAxis, yAxis);
  dropped_->setName(tr("dropped"));
  dropped_->setBrush(kDroppedColor);
  dropped_->setPen(Qt::NoPen);
  dropped_->setWidth(0.8);
  dropped_->moveAbove(kept_);
  capacity_ = addGraph();
  capacity_->setName(tr("capacity"));
  capacity_->setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));

  // Title and a one-line legend above the bars, where they cover none.
  plotLayout()->insertRow(0);
  plotLayout()->insertRow(0);
  title_ =
      new QCPTextElement(this, heading_, QFont(font().family(), font().pointSize(), QFont::Bold));
  plotLayout()->addElement(0, 0, title_);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  legend->setVisible(true);
  legend->setFont(small);
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(0);
  legend->setColumnSpacing(12);
  axisRect()->insetLayout()->take(legend);
  plotLayout()->addElement(1, 0, legend);
  plotLayout()->setRowSpacing(0);
  for (int row : {0, 1}) plotLayout()->setRowStretchFactor(row, 0.001);
  showMessage(tr("waiting for moe-train replay"));
}

QString RoutingBars::title() const {
  return title_->text();
}

void RoutingBars::showMessage(const QString& message) {
  kept_->data()->clear();
  dropped_->data()->clear();
  capacity_->data()->clear();
  highest_ = 0;
  title_->setText(heading_ + " · " + message);
  xAxis->setRange(-0.6, 0.6);
  yAxis->setRange(0, 1);
  replot(QCustomPlot::rpQueuedReplot);
}

void RoutingBars::showAnswer(const ReplayAnswer& answer, const QString& setting) {
  const size_t n = answer.counts.size();
  QVector<double> experts(n), kept(n), dropped(n);
  highest_ = static_cast<double>(std::max<int64_t>(answer.capacity, 0));
  for (size_t e = 0; e < n; ++e) {
    const double count = static_cast<double>(answer.counts[e]);
    experts[e] = static_cast<double>(e);
    kept[e] = e < answer.kept.size() ? static_cast<double>(answer.kept[e]) : 0;
    dropped[e] = count - kept[e];
    highest_ = std::max(highest_, count);
  }
  kept_->setData(experts, kept, true);
  dropped_->setData(experts, dropped, true);
  const double last = static_cast<double>(n) - 0.5;
  const double c = static_cast<double>(std::max<int64_t>(answer.capacity, 0));
  capacity_->setData({-0.5, last}, {c, c}, true);
  xAxis->setRange(-0.6, last + 0.1);
  title_->setText(tr("%1 · %2 · %3 % dropped")
                      .arg(heading_, setting)
                      .arg(answer.dropped_frac * 100, 0, 'f', 1));
}

void RoutingBars::setTop(double top) {
  yAxis->setRange(0, top * 1.08 + 1);
  replot(QCustomPlot::rpImmediateRefresh);
}

}  // namespace moe::ui

#include "widgets/kept_dropped_bars.h"

#include <qcustomplot.h>

#include <algorithm>

#include "widgets/plot_style.h"

namespace moe::ui {

namespace {

const QColor kKeptColor = seriesColor(0);     // blue
const QColor kDroppedColor = seriesColor(3);  // vermillion

QCPBars* addBars(QCustomPlot* plot, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  bars->setName(name);
  bars->setBrush(color);
  bars->setPen(Qt::NoPen);
  bars->setWidth(0.8);
  return bars;
}

}  // namespace

KeptDroppedBars buildKeptDroppedBars(QCustomPlot* plot, const QString& y_label,
                                     const QString& dropped_name, const QFont& title_font) {
  stylePlot(plot, QObject::tr("expert"), y_label);
  plot->setInteractions({});  // every expert fits; the axes follow the data
  plot->xAxis->grid()->setVisible(false);
  auto experts = QSharedPointer<QCPAxisTickerFixed>::create();
  experts->setTickStep(1);
  experts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot->xAxis->setTicker(experts);
  plot->xAxis->setSubTicks(false);

  KeptDroppedBars items;
  items.kept = addBars(plot, QObject::tr("kept"), kKeptColor);
  items.dropped = addBars(plot, dropped_name, kDroppedColor);
  items.dropped->moveAbove(items.kept);
  items.capacity = plot->addGraph();
  items.capacity->setName(QObject::tr("capacity"));
  items.capacity->setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));

  // Title, then the legend in one line, above the bars: inside the axis rect it would cover
  // the highest bar, which is the one to look at.
  QCPLayoutGrid* layout = plot->plotLayout();
  layout->insertRow(0);
  layout->insertRow(0);
  items.title = new QCPTextElement(plot, QString(), title_font);
  layout->addElement(0, 0, items.title);
  QFont small = plot->font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  QCPLegend* legend = plot->legend;
  legend->setVisible(true);
  legend->setFont(small);
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(0);  // one row
  legend->setColumnSpacing(12);
  plot->axisRect()->insetLayout()->take(legend);
  // Alone in the row the legend would spread its three entries over the plot's width; held at
  // its own size between two empty cells it stays one centred group.
  auto* legend_row = new QCPLayoutGrid;
  layout->addElement(1, 0, legend_row);
  legend_row->addElement(0, 0, new QCPLayoutElement(plot));
  legend_row->addElement(0, 1, legend);
  legend_row->addElement(0, 2, new QCPLayoutElement(plot));
  legend->setSizeConstraintRect(QCPLayoutElement::scrOuterRect);
  legend->setMaximumSize(legend->minimumOuterSizeHint());
  layout->setRowSpacing(0);
  for (int row : {0, 1}) layout->setRowStretchFactor(row, 0.001);
  return items;
}

void KeptDroppedBars::clear() {
  kept->data()->clear();
  dropped->data()->clear();
  capacity->data()->clear();
  QCustomPlot* plot = kept->parentPlot();
  plot->xAxis->setRange(-0.6, 0.6);
  plot->yAxis->setRange(0, 1);
}

double KeptDroppedBars::show(const QVector<double>& counts, const QVector<double>& kept_counts,
                             double capacity_line) {
  const qsizetype n = counts.size();
  QVector<double> experts(n), over(n);
  double top = capacity_line;
  for (qsizetype e = 0; e < n; ++e) {
    experts[e] = static_cast<double>(e);
    over[e] = counts[e] - kept_counts[e];
    top = std::max(top, counts[e]);
  }
  kept->setData(experts, kept_counts, true);
  dropped->setData(experts, over, true);
  const double last = static_cast<double>(n) - 0.5;
  capacity->setData({-0.5, last}, {capacity_line, capacity_line}, true);
  kept->parentPlot()->xAxis->setRange(-0.6, last + 0.1);
  return top;
}

}  // namespace moe::ui

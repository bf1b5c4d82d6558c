#include "widgets/plot_style.h"

#include <qcustomplot.h>

namespace moe::ui {

void stylePlot(QCustomPlot* plot, const QString& x_label, const QString& y_label) {
  QFont label_font = plot->font();
  label_font.setPointSizeF(label_font.pointSizeF() * 0.95);
  for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
    axis->setLabelFont(label_font);
    axis->setTickLabelFont(label_font);
    axis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);  // a solid line through a bar centred at 0
    axis->setBasePen(QPen(QColor(90, 90, 90)));
    axis->setTickPen(QPen(QColor(90, 90, 90)));
    axis->setSubTickPen(QPen(QColor(150, 150, 150)));
  }
  plot->xAxis->setLabel(x_label);
  plot->yAxis->setLabel(y_label);
  plot->setBackground(QBrush(QColor(252, 252, 252)));
  plot->axisRect()->setMinimumMargins(QMargins(8, 6, 10, 4));
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot->setMinimumHeight(170);
}

}  // namespace moe::ui

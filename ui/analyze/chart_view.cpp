#include "analyze/chart_view.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>

#include "base/storage/whole_file.h"
#include "draw/chart_painter.h"
#include "draw/chart_svg.h"

namespace moe::ui {

ChartView::ChartView(QString base_name, QWidget* parent)
    : QWidget(parent), base_name_(std::move(base_name)) {
  setMinimumSize(240, 180);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void ChartView::setChart(ChartContent chart) {
  chart_ = std::move(chart);
  update();
}

void ChartView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  if (chart_) paintChart(painter, *chart_, QSizeF(size()));
}

bool ChartView::exportTo(const QString& path, QString* error) const {
  if (!chart_) {
    *error = tr("Nothing to export yet");
    return false;
  }
  const QString suffix = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  if (suffix == QLatin1String("svg")) {
    bytes = chartSvg(ReportChart{*chart_, size()}, base_name_);
  } else if (suffix == QLatin1String("png")) {
    QImage image(size() * 2, QImage::Format_ARGB32);
    image.setDevicePixelRatio(2);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintChart(painter, *chart_, QSizeF(size()));
    painter.end();
    if (image.save(path, "PNG")) return true;
    *error = tr("Cannot write %1").arg(path);
    return false;
  } else {
    *error = tr("%1: export as .png or .svg").arg(path);
    return false;
  }
  return saveWhole(path, bytes, error);
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(tr("Export as PNG/SVG…"), this, &ChartView::chooseExport);
  menu.exec(event->globalPos());
}

QString askExportPath(QWidget* parent, const QString& title, const QString& base_name) {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("analyze/export_dir")).toString();
  const QString path = QFileDialog::getSaveFileName(
      parent, title, QDir(dir).filePath(base_name + QStringLiteral(".png")),
      QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (!path.isEmpty())
    settings.setValue(QStringLiteral("analyze/export_dir"), QFileInfo(path).absolutePath());
  return path;
}

void ChartView::chooseExport() {
  const QString path = askExportPath(this, tr("Export Chart"), base_name_);
  if (path.isEmpty()) return;
  QString error;
  if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace moe::ui

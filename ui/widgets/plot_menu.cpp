// installPlotMenu(): the context menu every dashboard plot carries (declared in plot_export.h).
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>

#include <limits>

#include "widgets/plot_export.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {

const char kExportDirKey[] = "plots/export_dir";

struct FormatChoice {
  const char* label;
  const char* suffix;
  const char* filter;
};

const FormatChoice kChoices[] = {
    {"Export as PNG…", "png", "PNG image (*.png)"},
    {"Export as SVG…", "svg", "SVG image (*.svg)"},
    {"Export as PDF…", "pdf", "PDF document (*.pdf)"},
    {"Export as CSV…", "csv", "CSV data (*.csv)"},
};

void exportWithDialog(QCustomPlot* plot, const QString& base_name, const FormatChoice& choice) {
  QSettings settings;
  const QString dir = settings.value(kExportDirKey, QDir::homePath()).toString();
  QString stem = base_name;
  stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
  if (stem.isEmpty()) stem = QStringLiteral("plot");
  const QString proposed = QDir(dir).filePath(stem + QLatin1Char('.') + choice.suffix);
  QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Export plot"), proposed,
                                              QObject::tr(choice.filter));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + QString(choice.suffix);
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());

  // The hover read-out belongs to the mouse, not to the exported figure.
  if (auto* series = qobject_cast<TimeSeriesPlot*>(plot))
    series->showHover(std::numeric_limits<double>::quiet_NaN());
  QString error;
  if (!exportPlot(plot, path, &error))
    QMessageBox::warning(plot, QObject::tr("Export failed"), error);
}

void resetView(QCustomPlot* plot) {
  if (auto* series = qobject_cast<TimeSeriesPlot*>(plot)) {
    series->resetView();
    return;
  }
  plot->rescaleAxes();
  plot->replot();
}

}  // namespace

void installPlotMenu(QCustomPlot* plot, const QString& base_name) {
  if (!plot) return;
  plot->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(
      plot, &QWidget::customContextMenuRequested, plot, [plot, base_name](const QPoint& pos) {
        QMenu menu(plot);
        for (const FormatChoice& choice : kChoices)
          menu.addAction(QObject::tr(choice.label), plot,
                         [plot, base_name, &choice] { exportWithDialog(plot, base_name, choice); });
        menu.addSeparator();
        menu.addAction(QObject::tr("Reset view"), plot, [plot] { resetView(plot); });
        menu.exec(plot->mapToGlobal(pos));
      });
}

}  // namespace moe::ui

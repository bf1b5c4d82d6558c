// ChartView: a report chart (base/report/report_chart.h) drawn in a widget at the widget's size by
// the report's own painter (draw/chart_painter.h), so the view and the run report look alike. Its
// context menu exports it as PNG or SVG.
#pragma once

#include <QWidget>

#include <optional>

#include "base/report/report_document.h"

namespace moe::ui {

// Asks where to export `base_name` (.png or .svg), starting in the last folder used; empty when
// cancelled.
QString askExportPath(QWidget* parent, const QString& title, const QString& base_name);

class ChartView : public QWidget {
  Q_OBJECT

 public:
  // `base_name` seeds the file name the export dialog proposes.
  ChartView(QString base_name, QWidget* parent = nullptr);

  void setChart(ChartContent chart);
  const ChartContent* chart() const { return chart_ ? &*chart_ : nullptr; }

  // PNG (twice the on-screen size, for sharpness) or SVG by the suffix; false with *error.
  bool exportTo(const QString& path, QString* error) const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void chooseExport();

  QString base_name_;
  std::optional<ChartContent> chart_;
};

}  // namespace moe::ui

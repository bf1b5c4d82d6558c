// The Analyze view (docs/INFERENCE.md, "Routing analysis"): a `moe-train analyze` report read on a
// worker and drawn: every layer's expert load share as one heatmap (dead and overloaded experts
// marked), the chosen layer's co-selection matrix and top tokens, the dropped share against the
// capacity factor per layer, and the balance figures. The charts are the run report's
// (base/report/analysis_charts.h); the view and each chart export as PNG or SVG.
#pragma once

#include <QWidget>

#include <optional>

#include "base/analyze/analysis_report.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace moe::ui {

class ChartView;

class AnalyzeView : public QWidget {
  Q_OBJECT

 public:
  explicit AnalyzeView(QString path, QWidget* parent = nullptr);

  const QString& path() const { return path_; }
  const std::optional<AnalysisReport>& report() const { return report_; }
  QString title() const;
  QString statusText() const;

  int layerIndex() const;  // into report()->layers; -1 before it is read
  void setLayerIndex(int index);

  ChartView* loadChart() const { return load_chart_; }
  ChartView* coSelectionChart() const { return co_chart_; }
  ChartView* droppedChart() const { return dropped_chart_; }
  QTableWidget* balanceTable() const { return balance_table_; }
  QTableWidget* topTokensTable() const { return tokens_table_; }

  // The whole view as PNG (its own rendering) or SVG; false with *error.
  bool exportView(const QString& path, QString* error);

 signals:
  void loaded();
  void failed(const QString& error);
  // The chosen layer's capture (analyze --capture) to open in the What-if view.
  void whatIfRequested(const QString& tensors, const QString& title);

 private:
  void buildLayout();
  void showReport(AnalysisReport report);
  void showLayer();
  void chooseExport();

  QString path_;
  std::optional<AnalysisReport> report_;
  QLabel* header_;
  QLabel* status_;
  QComboBox* layer_box_;
  QPushButton* what_if_button_;
  QPushButton* export_button_;
  QTableWidget* balance_table_;
  QTableWidget* tokens_table_;
  ChartView* load_chart_;
  ChartView* co_chart_;
  ChartView* dropped_chart_;
};

}  // namespace moe::ui

// ProfilerCharts: a sweep's figures per config as bar charts: train tokens/s (our layer beside
// the naive baseline), TFLOP/s, efficiency against the GEMM ceiling, and the phase breakdown as
// stacked bars. Given several sweeps (compare), the bars of one config label stand side by side,
// one colour per sweep, each sweep with its own narrower stack of phases. Every chart has the
// plots' export menu (PNG, SVG, PDF, CSV).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "base/profiler/bench_result.h"

class QCustomPlot;

namespace moe::ui {

struct ChartSweep {
  QString name;  // the legend's name for this sweep
  QList<BenchResult> results;
};

class ProfilerCharts : public QWidget {
  Q_OBJECT

 public:
  explicit ProfilerCharts(QWidget* parent = nullptr);

  // One sweep (live: call again as configs arrive) or several to compare.
  void setSweeps(const QList<ChartSweep>& sweeps);
  QStringList configLabels() const { return labels_; }  // the x axis, left to right

  QCustomPlot* tokensPlot() const { return tokens_; }
  QCustomPlot* tflopsPlot() const { return tflops_; }
  QCustomPlot* efficiencyPlot() const { return efficiency_; }
  QCustomPlot* phasesPlot() const { return phases_; }
  QList<QCustomPlot*> plots() const { return {tokens_, tflops_, efficiency_, phases_}; }

 private:
  void fillPlot(QCustomPlot* plot, const QList<ChartSweep>& sweeps, bool with_naive,
                double (*value)(const BenchResult&));
  void fillPhases(const QList<ChartSweep>& sweeps);
  // totals: each stack's height, [label * sweeps + sweep]; width: one stack's.
  void labelStacks(const QList<ChartSweep>& sweeps, const QVector<double>& totals, double width);
  void setLabelAxis(QCustomPlot* plot);
  int labelIndex(const BenchResult& r) const;  // its config's place on the x axis

  QCustomPlot* tokens_;
  QCustomPlot* tflops_;
  QCustomPlot* efficiency_;
  QCustomPlot* phases_;
  QStringList labels_;
};

}  // namespace moe::ui

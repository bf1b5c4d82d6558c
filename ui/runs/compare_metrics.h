#pragma once
// The series the compare view can overlay, and how each is read from a run's telemetry.
// Balance metrics are averaged over the run's MoE layers, step by step, so runs with different
// layer counts compare on one curve each.
#include <QString>
#include <QStringList>

#include "base/telemetry/run_series.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

enum class CompareMetric {
  Loss,
  SmoothedLoss,
  EvalLoss,
  EvalAccuracy,
  AuxLoss,
  LearningRate,
  TokensPerSecond,
  StepTime,
  GradNorm,
  LoadEntropy,
  RouterEntropy,
  MaxOverMean,
  LoadCv,
  DroppedPercent,
  DeadExperts,
};

QStringList compareMetricNames();  // in enum order, for a combo box
CompareMetric compareMetricAt(int index);

// The rows of `metric` for one run; `smoothing` is the EMA weight for SmoothedLoss.
TimeSeriesPlot::Rows compareRows(const RunSeries& series, CompareMetric metric, double smoothing);

}  // namespace moe::ui

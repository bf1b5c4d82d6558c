#include "runs/compare_metrics.h"

#include <QObject>
#include <map>

#include "base/plot_data/smoothing.h"

namespace moe::ui {

namespace {

TimeSeriesPlot::Rows stepRows(const StepColumns& s, const std::vector<double>& column) {
  return {toQVector(s.step), toQVector(s.t), toQVector(column)};
}

// The mean over layers of one balance column, per step (a layer missing a step is left out).
TimeSeriesPlot::Rows layerMean(const RunSeries& series, std::vector<double> LayerColumns::*col,
                               double scale) {
  struct StepSum {
    double t = 0, sum = 0;
    int layers = 0;
  };
  std::map<double, StepSum> by_step;
  for (int64_t layer : series.layers()) {
    const auto columns = series.layer(layer);
    if (!columns) continue;
    const std::vector<double>& values = (*columns).*col;
    for (size_t i = 0; i < columns->size(); ++i) {
      StepSum& s = by_step[columns->step[i]];
      s.t = columns->t[i];
      s.sum += values[i] * scale;
      ++s.layers;
    }
  }
  TimeSeriesPlot::Rows rows;
  for (const auto& [step, s] : by_step) {
    rows.step.push_back(step);
    rows.t.push_back(s.t);
    rows.value.push_back(s.sum / s.layers);
  }
  return rows;
}

TimeSeriesPlot::Rows evalRows(const RunSeries& series, bool accuracy) {
  TimeSeriesPlot::Rows rows;
  for (const auto& e : series.evals()) {
    if (accuracy && !e.accuracy) continue;
    rows.step.push_back(static_cast<double>(e.step));
    rows.t.push_back(e.t);
    rows.value.push_back(accuracy ? *e.accuracy * 100 : e.loss);
  }
  return rows;
}

}  // namespace

QStringList compareMetricNames() {
  return {QObject::tr("Loss"),
          QObject::tr("Loss (smoothed)"),
          QObject::tr("Eval loss"),
          QObject::tr("Eval accuracy (%)"),
          QObject::tr("Aux loss"),
          QObject::tr("Learning rate"),
          QObject::tr("Tokens / s"),
          QObject::tr("Step time (ms)"),
          QObject::tr("Gradient norm"),
          QObject::tr("Load entropy (layer mean)"),
          QObject::tr("Router entropy (layer mean)"),
          QObject::tr("Max / mean load (layer mean)"),
          QObject::tr("CV of load (layer mean)"),
          QObject::tr("Dropped tokens % (layer mean)"),
          QObject::tr("Dead experts (layer mean)")};
}

CompareMetric compareMetricAt(int index) {
  return static_cast<CompareMetric>(index);
}

TimeSeriesPlot::Rows compareRows(const RunSeries& series, CompareMetric metric, double smoothing) {
  switch (metric) {
    case CompareMetric::EvalLoss:
      return evalRows(series, false);
    case CompareMetric::EvalAccuracy:
      return evalRows(series, true);
    case CompareMetric::LoadEntropy:
      return layerMean(series, &LayerColumns::load_entropy, 1);
    case CompareMetric::RouterEntropy:
      return layerMean(series, &LayerColumns::router_entropy, 1);
    case CompareMetric::MaxOverMean:
      return layerMean(series, &LayerColumns::max_over_mean, 1);
    case CompareMetric::LoadCv:
      return layerMean(series, &LayerColumns::cv, 1);
    case CompareMetric::DroppedPercent:
      return layerMean(series, &LayerColumns::dropped_frac, 100);
    case CompareMetric::DeadExperts:
      return layerMean(series, &LayerColumns::dead_experts, 1);
    default:
      break;
  }
  const StepColumns s = series.steps();
  switch (metric) {
    case CompareMetric::SmoothedLoss: {
      TimeSeriesPlot::Rows rows = stepRows(s, s.loss);
      rows.value = smoothed(rows.value, smoothing);
      return rows;
    }
    case CompareMetric::AuxLoss:
      return stepRows(s, s.aux_loss);
    case CompareMetric::LearningRate:
      return stepRows(s, s.lr);
    case CompareMetric::TokensPerSecond:
      return stepRows(s, s.tokens_per_s);
    case CompareMetric::StepTime:
      return stepRows(s, s.step_ms);
    case CompareMetric::GradNorm:
      return stepRows(s, s.grad_norm);
    default:
      return stepRows(s, s.loss);
  }
}

}  // namespace moe::ui

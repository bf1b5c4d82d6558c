#include "dashboard/training_page.h"

#include <QGridLayout>

#include <algorithm>
#include <limits>

#include "base/telemetry/run_series.h"
#include "widgets/capture_markers.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"
#include "widgets/plot_sync.h"
#include "widgets/restart_markers.h"

namespace moe::ui {

namespace {

constexpr double kAppendOnly = std::numeric_limits<double>::infinity();
constexpr int kMinPlotHeight = 100;  // four rows of plots still fit a 768-pixel-high screen

}  // namespace

TrainingPage::TrainingPage(PlotSync* sync, QWidget* parent) : QWidget(parent) {
  loss_ = addPlot(tr("loss"), "loss");
  raw_ = loss_->addCurve(tr("loss"), QPen(seriesColor(0).lighter(165), 1));
  smooth_ = loss_->addCurve(tr("smoothed"), QPen(seriesColor(0), 2));
  eval_ = loss_->addCurve(tr("eval loss"), QPen(seriesColor(3), 2), true);
  loss_->setListedOnlyWithRows(eval_);  // most runs have no evals: no legend entry for none
  captures_ = new CaptureMarkers(loss_);
  restarts_ = new RestartMarkers(loss_);
  aux_ = addPlot(tr("auxiliary losses"), "aux-z-loss");
  aux_curve_ = aux_->addCurve(tr("aux loss"), QPen(seriesColor(1), 1.5));
  z_curve_ = aux_->addCurve(tr("z-loss"), QPen(seriesColor(4), 1.5));
  lr_ = addPlot(tr("learning rate"), "learning-rate");
  lr_->addCurve(tr("lr"), QPen(seriesColor(2), 1.5));
  grad_ = addPlot(tr("gradient norm"), "grad-norm");
  grad_->addCurve(tr("grad norm"), QPen(seriesColor(6), 1.2));
  speed_ = addPlot(tr("tokens / s"), "tokens-per-s");
  speed_->addCurve(tr("tokens/s"), QPen(seriesColor(2), 1.5));
  step_time_ = addPlot(tr("step time (ms)"), "step-time");
  step_time_->addCurve(tr("step ms"), QPen(seriesColor(5), 1.5));
  accuracy_ = addPlot(tr("accuracy (%)"), "eval-accuracy");  // short: the plot is low
  accuracy_->addCurve(tr("eval accuracy"), QPen(seriesColor(3), 2), true);
  loss_->shareKeys(raw_, step_keys_);
  loss_->shareKeys(smooth_, step_keys_);
  aux_->shareKeys(aux_curve_, step_keys_);
  aux_->shareKeys(z_curve_, step_keys_);
  for (TimeSeriesPlot* plot : {lr_, grad_, speed_, step_time_}) plot->shareKeys(0, step_keys_);

  auto* grid = grid_ = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  grid->addWidget(loss_, 0, 0, 1, 2);  // the loss is what people watch: full width
  grid->addWidget(aux_, 1, 0);
  grid->addWidget(lr_, 1, 1);
  grid->addWidget(speed_, 2, 0);
  grid->addWidget(step_time_, 2, 1);
  grid->addWidget(grad_, 3, 0, 1, 2);
  accuracy_->hide();
  grid->setRowStretch(0, 3);
  for (int row = 1; row < 4; ++row) grid->setRowStretch(row, 2);
  for (TimeSeriesPlot* plot : plots_) sync->add(plot);
}

TimeSeriesPlot* TrainingPage::addPlot(const QString& y_label, const QString& export_name) {
  auto* plot = new TimeSeriesPlot(y_label, this);
  plot->setMinimumHeight(kMinPlotHeight);
  installPlotMenu(plot, export_name);
  plots_.push_back(plot);
  return plot;
}

void TrainingPage::apply(const RunSnapshot& delta) {
  if (delta.reset) {
    const auto rows = static_cast<qsizetype>(expectedRows(delta.info.config));
    for (TimeSeriesPlot* plot : plots_) plot->reserveRows(rows);
    step_keys_->reserve(rows);
  }
  const StepColumns& s = delta.steps;
  const double from = delta.reset ? -kAppendOnly : s.replace_from;
  step_keys_->replaceFrom(from, toQVector(s.step), toQVector(s.t));  // first: the curves follow
  loss_->replaceValuesFrom(raw_, from, toQVector(s.loss));
  aux_->replaceValuesFrom(aux_curve_, from, toQVector(s.aux_loss));
  aux_->replaceValuesFrom(z_curve_, from, toQVector(s.z_loss));
  lr_->replaceValuesFrom(0, from, toQVector(s.lr));
  grad_->replaceValuesFrom(0, from, toQVector(s.grad_norm));
  speed_->replaceValuesFrom(0, from, toQVector(s.tokens_per_s));
  step_time_->replaceValuesFrom(0, from, toQVector(s.step_ms));
  resmoothFrom(from);

  TimeSeriesPlot::Rows evals, accuracy;  // few rows, always complete in a delta
  for (const auto& e : delta.evals) {
    evals.step.push_back(static_cast<double>(e.step));
    evals.t.push_back(e.t);
    evals.value.push_back(e.loss);
    if (!e.accuracy) continue;
    accuracy.step.push_back(static_cast<double>(e.step));
    accuracy.t.push_back(e.t);
    accuracy.value.push_back(*e.accuracy * 100);
  }
  loss_->setRows(eval_, evals);
  accuracy_->setRows(0, accuracy);
  showAccuracy(!accuracy.step.isEmpty());
  captures_->show(delta.captures);
  restarts_->show(delta.restarts);
  // The synced x-range is the last fitted plot's: the evals start late, so theirs goes first.
  accuracy_->refreshView();
  for (TimeSeriesPlot* plot : plots_)
    if (plot != accuracy_) plot->refreshView();
}

// The gradient norm has the last row to itself until there is an accuracy to show beside it.
void TrainingPage::showAccuracy(bool on) {
  if (on == accuracy_->isVisibleTo(this)) return;
  grid_->removeWidget(grad_);
  if (on) {
    grid_->addWidget(grad_, 3, 0);
    grid_->addWidget(accuracy_, 3, 1);
  } else {
    grid_->removeWidget(accuracy_);
    grid_->addWidget(grad_, 3, 0, 1, 2);
  }
  accuracy_->setVisible(on);
}

void TrainingPage::setSmoothing(double weight) {
  if (weight == smoother_.weight()) return;
  smoother_ = EmaSmoother(weight);
  smooth_checkpoints_.clear();
  resmoothFrom(-kAppendOnly);
  loss_->refreshView();
}

// Brings the smoothed curve level with the raw one. Rows from `from` on were replaced: the
// average resumes from the last checkpoint before them; otherwise it continues with the new raw
// rows.
void TrainingPage::resmoothFrom(double from) {
  const qsizetype rows = loss_->rowCount(raw_);  // the raw curve's values, read without a copy
  qsizetype first = loss_->rowCount(smooth_);
  qsizetype row = first;
  if (from != kAppendOnly) {
    const QVector<double>& steps = step_keys_->step();
    first = std::lower_bound(steps.begin(), steps.begin() + rows, from) - steps.begin();
    const auto kept = std::min<size_t>(static_cast<size_t>(first / kSmoothCheckpointRows) + 1,
                                       smooth_checkpoints_.size());
    smooth_checkpoints_.resize(kept);
    if (kept > 0) {
      smoother_ = smooth_checkpoints_.back();
    } else {
      smoother_.reset();
    }
    row = static_cast<qsizetype>(kept > 0 ? kept - 1 : 0) * kSmoothCheckpointRows;
  }
  // One pass from the resume point: rows before `first` only move the average on.
  QVector<double> values;
  values.reserve(rows - first);
  for (; row < rows; ++row) {
    if (row % kSmoothCheckpointRows == 0 &&
        static_cast<qsizetype>(smooth_checkpoints_.size()) == row / kSmoothCheckpointRows)
      smooth_checkpoints_.push_back(smoother_);
    const double value = smoother_.add(loss_->value(raw_, row));
    if (row >= first) values.push_back(value);
  }
  // The smoothed curve shares the raw curve's keys: values for the rows from `first` on.
  loss_->replaceValuesFrom(smooth_, from, values);
}

}  // namespace moe::ui

#include "dashboard/ranks_page.h"

#include <QGridLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <limits>

#include "base/telemetry/run_series.h"
#include "widgets/adaptive_r_markers.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"
#include "widgets/plot_sync.h"
#include "widgets/rank_heatmap.h"

namespace moe::ui {

namespace {
constexpr int kMinPlotHeight = 150;  // three rows of plots, still above the log on a laptop
constexpr int kLegendRows = 16;      // 64 ranks: four columns
constexpr int kPaletteSize = 7;      // seriesColor's colours; then dashed, then dotted (21 looks)

QPen rankPen(int curve) {
  static const Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
  return QPen(seriesColor(curve), 1.5, kStyles[(curve / kPaletteSize) % 3]);
}

// Why there is nothing to plot yet: a multi-process run says so from its run_start (world_size)
// until its first ranks event, rather than passing for a single process.
QString noRanksText(const RunSnapshot& run) {
  if (!run.info.started) {
    return run.run_end ? RanksPage::tr("no per-rank figures")
                       : RanksPage::tr("waiting for the run to start");
  }
  const int64_t ranks = run.info.world_size;
  if (ranks <= 1) return RanksPage::tr("single-process run: no per-rank figures");
  if (run.run_end)
    return RanksPage::tr("%1 ranks: the run ended before any per-rank figures").arg(ranks);
  return RanksPage::tr("%1 ranks: waiting for the first per-rank figures").arg(ranks);
}
}  // namespace

RanksPage::RanksPage(PlotSync* sync, QWidget* parent)
    : QWidget(parent), keys_(std::make_shared<PlotKeys>()) {
  message_ = new QLabel(tr("waiting for the run to start"), this);
  message_->setObjectName("ranksMessage");
  message_->setAlignment(Qt::AlignCenter);
  message_->setStyleSheet("QLabel { color: #6b7280; font-size: 11pt; }");

  auto* plots = new QWidget(this);
  step_ms_ = addPlot(tr("step time (ms)"), "rank-step-time");
  a2a_ms_ = addPlot(tr("all-to-all wait (ms)"), "rank-a2a-wait");
  allreduce_ms_ = addPlot(tr("all-reduce wait (ms)"), "rank-allreduce-wait");
  heatmap_ = new RankHeatmap(this);
  heatmap_->setMinimumHeight(kMinPlotHeight);
  installPlotMenu(heatmap_, "rank-step-heatmap");
  markers_ = new AdaptiveRMarkers(step_ms_);
  placeLegend();

  auto* grid = new QGridLayout(plots);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  grid->addWidget(step_ms_, 0, 0, 1, 2);
  grid->addWidget(a2a_ms_, 1, 0);
  grid->addWidget(allreduce_ms_, 1, 1);
  grid->addWidget(heatmap_, 2, 0, 1, 2);
  grid->setRowStretch(0, 3);
  grid->setRowStretch(1, 2);
  grid->setRowStretch(2, 2);
  for (TimeSeriesPlot* plot : {step_ms_, a2a_ms_, allreduce_ms_}) sync->add(plot);

  stack_ = new QStackedWidget(this);
  stack_->addWidget(message_);
  stack_->addWidget(plots);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
}

TimeSeriesPlot* RanksPage::addPlot(const QString& y_label, const QString& export_name) {
  auto* plot = new TimeSeriesPlot(y_label, this);
  plot->setMinimumHeight(kMinPlotHeight);
  installPlotMenu(plot, export_name);
  return plot;
}

void RanksPage::placeLegend() {
  // Out of the axis rect, where 64 entries would cover the curves, into a column on the right:
  // the legend at its top, an empty element taking the rest of the height.
  QCPLegend* legend = step_ms_->legend;
  step_ms_->axisRect()->insetLayout()->take(legend);
  auto* column = new QCPLayoutGrid;
  step_ms_->plotLayout()->addElement(0, 1, column);
  step_ms_->plotLayout()->setColumnStretchFactor(1, 0.001);
  column->addElement(0, 0, legend);
  column->addElement(1, 0, new QCPLayoutElement(step_ms_));
  column->setRowStretchFactor(0, 0.001);
  column->setMargins(QMargins(0, 6, 4, 0));
  legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
  legend->setWrap(kLegendRows);
  legend->setRowSpacing(0);
  legend->setColumnSpacing(4);
  legend->setMargins(QMargins(4, 2, 4, 2));
}

bool RanksPage::hasRanks() const {
  return keys_->size() > 0;
}

int RanksPage::curveFor(int64_t rank) {
  auto it = rank_curve_.find(rank);
  if (it != rank_curve_.end()) return it.value();
  const int curve = static_cast<int>(rank_curve_.size());
  rank_curve_.insert(rank, curve);
  curve_rank_.insert(curve, rank);
  for (TimeSeriesPlot* plot : {step_ms_, a2a_ms_, allreduce_ms_}) {
    plot->addCurve(tr("rank %1").arg(rank), rankPen(curve));
    plot->shareKeys(curve, keys_);
  }
  return curve;
}

void RanksPage::apply(const RunSnapshot& delta) {
  if (delta.reset) {
    reserved_rows_ = static_cast<qsizetype>(expectedRows(delta.info.config));
    for (TimeSeriesPlot* plot : {step_ms_, a2a_ms_, allreduce_ms_}) {
      plot->removeCurves();
      plot->reserveRows(reserved_rows_);
    }
    rank_curve_.clear();
    curve_rank_.clear();
    keys_ = std::make_shared<PlotKeys>();
    keys_->reserve(reserved_rows_);
  }
  const RankColumns& ranks = delta.ranks;
  if (ranks.size() > 0 || delta.reset) {
    const double from = delta.reset ? -std::numeric_limits<double>::infinity() : ranks.replace_from;
    keys_->replaceFrom(from, toQVector(ranks.step), toQVector(ranks.t));
    for (const RankSeries& rank : ranks.ranks) {
      const int curve = curveFor(rank.rank);
      step_ms_->replaceValuesFrom(curve, from, toQVector(rank.step_ms));
      a2a_ms_->replaceValuesFrom(curve, from, toQVector(rank.a2a_ms));
      allreduce_ms_->replaceValuesFrom(curve, from, toQVector(rank.allreduce_ms));
    }
  }
  // The waits' legend would repeat the step-time plot's.
  a2a_ms_->legend->setVisible(false);
  allreduce_ms_->legend->setVisible(false);
  markers_->show(delta.adaptive_r);
  if (!hasRanks()) message_->setText(noRanksText(delta));
  stack_->setCurrentIndex(hasRanks() ? 1 : 0);
  for (TimeSeriesPlot* plot : {step_ms_, a2a_ms_, allreduce_ms_}) plot->refreshView();
}

void RanksPage::updateFrom(const RunSeries& series) {
  if (hasRanks()) heatmap_->updateFrom(series);
}

}  // namespace moe::ui

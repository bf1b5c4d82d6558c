#pragma once
// The dashboard's ranks page, for multi-process runs (`ranks` events): each rank's step time over
// the run (one curve per rank, with the adaptive_r decisions marked), its all-to-all and
// all-reduce waits, and a ranks x steps heatmap of step time where a straggler shows as a bright
// row. The line plots zoom with the training plots. Until a run has ranks events the page shows
// a line saying why: a single process, a run not started yet, or the ranks' first figures to come.
#include <QMap>
#include <QWidget>

#include <cstdint>
#include <memory>

#include "base/telemetry/series_columns.h"
#include "widgets/time_series_plot.h"

class QLabel;
class QStackedWidget;

namespace moe::ui {

class AdaptiveRMarkers;
class PlotSync;
class RankHeatmap;
class RunSeries;

class RanksPage : public QWidget {
  Q_OBJECT

 public:
  explicit RanksPage(PlotSync* sync, QWidget* parent = nullptr);

  // The line plots and markers, from a RunSeries delta.
  void apply(const RunSnapshot& delta);
  // The heatmap (re-reads the run; cheap when nothing changed).
  void updateFrom(const RunSeries& series);

  bool hasRanks() const;  // false: message() says why there are none
  QLabel* message() const { return message_; }
  TimeSeriesPlot* stepTime() const { return step_ms_; }
  TimeSeriesPlot* a2aWait() const { return a2a_ms_; }
  TimeSeriesPlot* allReduceWait() const { return allreduce_ms_; }
  RankHeatmap* heatmap() const { return heatmap_; }
  const AdaptiveRMarkers& markers() const { return *markers_; }
  // The rank each curve (same index in all three plots) stands for.
  int64_t curveRank(int curve) const { return curve_rank_.value(curve); }

 private:
  TimeSeriesPlot* addPlot(const QString& y_label, const QString& export_name);
  // The curve of `rank` in every plot, added (in the next colour) when new.
  int curveFor(int64_t rank);
  // The legend, for up to ~64 ranks: beside the step-time plot, in columns of kLegendRows.
  void placeLegend();

  QStackedWidget* stack_;
  QLabel* message_;
  TimeSeriesPlot* step_ms_;
  TimeSeriesPlot* a2a_ms_;
  TimeSeriesPlot* allreduce_ms_;
  RankHeatmap* heatmap_;
  AdaptiveRMarkers* markers_;
  std::shared_ptr<PlotKeys> keys_;  // every rank's rows share the ranks events' steps
  QMap<int64_t, int> rank_curve_;   // rank -> curve index, in order seen
  QMap<int, int64_t> curve_rank_;
  qsizetype reserved_rows_ = 0;
};

}  // namespace moe::ui

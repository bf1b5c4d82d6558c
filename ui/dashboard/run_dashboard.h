#pragma once
// RunDashboard: everything about one run on one page. A header (state, progress, Cancel), the
// view controls, a routing-warning banner, and tabs: Training (losses, lr, throughput), Expert
// load (heatmaps and the latest counts vs capacity), Imbalance (balance metrics per layer),
// Phases (where a step's time goes), Ranks (per-rank step times and waits of a multi-process
// run), Predicted vs measured (the planner's model against the run), above the run's log.
//
// It draws a RunSeries: a live Run's (not owned: closing the tab leaves the run going) or
// one it replays from a run directory's metrics.jsonl (a finished run, or one copied from a
// cluster). Redraws run on a ~25 fps timer and read only what changed since the last frame.
#include <QElapsedTimer>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/telemetry/run_series.h"

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTabWidget;

namespace moe::ui {

class DashboardControls;
class ImbalancePage;
class LoadPage;
class PhaseBreakdownPlot;
class PlanCheckPage;
class PlotSync;
class RanksPage;
class Run;
class RunHeader;
class TelemetryFeed;
class TrainingPage;

class RunDashboard : public QWidget {
  Q_OBJECT

 public:
  // A live run.
  explicit RunDashboard(Run* run, QWidget* parent = nullptr);
  // A series fed by someone else (`run` may be null; `run_dir` names it in the header).
  RunDashboard(std::shared_ptr<RunSeries> series, Run* run, const QString& run_dir,
               QWidget* parent = nullptr);
  // Replays `run_dir`/metrics.jsonl (loadFailed() when it cannot be read), then follows the
  // file while it has no run_end: a run still training elsewhere keeps moving.
  static RunDashboard* replay(const QString& run_dir, QWidget* parent = nullptr);
  ~RunDashboard() override;

  Run* run() const;
  QString runDir() const;
  std::shared_ptr<RunSeries> series() const { return series_; }
  QString title() const;
  // The problems shown in the banner, one line each: routing ("Layer 1: routing collapsed …"),
  // then slow ranks ("Rank 3 (node-b) is persistently slower …").
  QStringList warnings() const { return warnings_; }

  TrainingPage* training() const { return training_; }
  ImbalancePage* imbalance() const { return imbalance_; }
  LoadPage* load() const { return load_; }
  PhaseBreakdownPlot* phases() const { return phases_; }
  RanksPage* ranks() const { return ranks_; }
  PlanCheckPage* planCheck() const { return plan_check_; }
  DashboardControls* controls() const { return controls_; }
  QTabWidget* pages() const { return pages_; }
  RunHeader* header() const { return header_; }

  // Redraws from the series now (otherwise a coalescing timer does).
  void refresh();
  // Turns the coalescing redraw timer off (a benchmark that calls refresh() itself) or on.
  void setAutoRefresh(bool on);

 signals:
  void titleChanged(const QString& title);
  void loadFailed(const QString& error);
  // A replay has read the whole metrics.jsonl (again when a followed run writes its run_end).
  void replayFinished();
  // The user asked to continue this run from its newest checkpoint.
  void resumeRequested(const QString& run_dir);
  // The user asked for the What-if view of a captured layer (a capture marker or the What-if
  // menu); `tensors` is the capture's file.
  void whatIfRequested(const QString& run_dir, qint64 step, qint64 layer, const QString& tensors);

 private:
  void buildLayout();
  void connectControls();
  // Heatmaps, phase bars and warnings; `now`: not waiting for their interval.
  void refreshSlowViews(bool now = false);
  QString titleFrom(const RunInfo& info) const;
  static bool writesTrace(const nlohmann::json& config);
  void readWholeRun();
  void applyToPages(const RunSnapshot& delta);
  void updateWarnings();
  void appendLog(const QStringList& lines);
  // adaptive_r decisions not logged yet, as log lines.
  void logAdaptiveR(const std::vector<protocol::AdaptiveREvent>& decisions);
  void loadLogFile();
  // A captured step asked for: its one layer, or a menu of its layers at the pointer.
  void requestWhatIf(qint64 step, std::optional<qint64> layer);
  void followFile();

  std::shared_ptr<RunSeries> series_;
  QPointer<Run> run_;
  QString run_dir_;
  TelemetryFeed* replay_feed_ = nullptr;

  RunHeader* header_;
  DashboardControls* controls_;
  QLabel* banner_;
  QTabWidget* pages_;
  QSplitter* splitter_;
  PlotSync* sync_;
  TrainingPage* training_;
  LoadPage* load_;
  ImbalancePage* imbalance_;
  PhaseBreakdownPlot* phases_;
  RanksPage* ranks_;
  PlanCheckPage* plan_check_;
  QPlainTextEdit* log_;

  QTimer redraw_timer_;
  QElapsedTimer slow_views_;  // since refreshSlowViews() last ran
  QString shown_title_;       // the title titleChanged() last announced
  uint64_t drawn_version_ = 0;
  QStringList warnings_;
  std::set<std::pair<int64_t, int64_t>> logged_adaptive_r_;  // (step, r) already in the log
  bool log_from_events_ = false;
  QTimer follow_timer_;       // a replay without run_end watches its file for more
  qint64 follow_offset_ = 0;  // a replay without stderr.log shows telemetry's log events
};

}  // namespace moe::ui

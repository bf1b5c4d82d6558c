#pragma once
// One run's page: state and progress (step / total, ETA), Cancel, the live loss and throughput
// plots, the latest per-expert load of the first MoE layer with its capacity line, and the
// engine's log. It shows a LocalRun it does not own: closing the page leaves the run going.
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include "dashboard/series_columns.h"
#include "launch/local_run.h"

class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace moe::ui {

class RunPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunPanel(LocalRun* run, QWidget* parent = nullptr);

  LocalRun* run() const { return run_; }
  QCustomPlot* lossPlot() const { return loss_plot_; }
  // Redraws from the run's series now (the panel otherwise redraws on a coalescing timer).
  void refresh();

 private:
  void buildLayout();
  void showState();
  void showProgress(qint64 step, qint64 total, double eta_seconds);
  void appendLog(const QStringList& lines);
  void applyCurves(const RunSnapshot& delta);
  double smoothStep(double value);
  void restartSmoothing(double from);
  void redrawLoad();

  QPointer<LocalRun> run_;
  QLabel* title_;
  QLabel* state_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QCustomPlot* loss_plot_;
  QCustomPlot* speed_plot_;
  QCustomPlot* load_plot_;
  QPlainTextEdit* log_;
  QTimer redraw_timer_;  // ~25 fps at most, however fast telemetry arrives
  uint64_t drawn_version_ = 0;
  double ema_ = 0, ema_norm_ = 0;  // the smoothed loss's running state
};

}  // namespace moe::ui

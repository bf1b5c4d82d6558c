#pragma once
// The row of view controls above a dashboard's plots: x-axis by step or wall time, log-scale y,
// the loss smoothing weight (0–0.999, debiased EMA) and a reset of the synced zoom. The choices
// persist (QSettings "dashboard/…") so every new dashboard opens the way the last was left.
// Once the run has captured steps (telemetry.capture_every), a What-if menu lists them, a
// submenu per step with several layers. A run that writes trace.json (telemetry.trace) gets a
// Trace menu to find the file and open it in Perfetto.
#include <QString>
#include <QWidget>

#include <vector>

#include "base/telemetry/telemetry_protocol.h"

#include "widgets/time_series_plot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace moe::ui {

class DashboardControls : public QWidget {
  Q_OBJECT

 public:
  explicit DashboardControls(QWidget* parent = nullptr);

  TimeSeriesPlot::XMode xMode() const;
  bool logY() const;
  double smoothing() const;  // 0 .. 0.999

  void setXMode(TimeSeriesPlot::XMode mode);
  void setLogY(bool on);
  void setSmoothing(double weight);
  // The run's captures, by step then layer; the What-if button shows once there is one.
  void setCaptures(const std::vector<protocol::CaptureEvent>& captures);
  QToolButton* whatIfButton() const { return what_if_; }
  // The run's trace.json (the Trace button shows once a path is set; empty hides it).
  void setTraceFile(const QString& path);
  QToolButton* traceButton() const { return trace_; }

 signals:
  void xModeChanged(moe::ui::TimeSeriesPlot::XMode mode);
  void logYChanged(bool on);
  void smoothingChanged(double weight);
  void resetViewRequested();
  void whatIfRequested(qint64 step, qint64 layer);

 private:
  void save() const;
  void fillTraceMenu();

  QComboBox* x_axis_;
  QCheckBox* log_y_;
  QSlider* smoothing_;
  QLabel* smoothing_value_;
  QToolButton* what_if_;
  QToolButton* trace_;
  QString trace_file_;
  std::vector<protocol::CaptureEvent> captures_;
};

}  // namespace moe::ui

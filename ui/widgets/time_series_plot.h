#pragma once
// TimeSeriesPlot: a QCustomPlot of named curves over a run's steps, the building block of every
// line plot in the dashboard and the compare view.
//
// Each curve keeps its raw rows (step, wall time, value) so the x-axis can switch between step
// and wall time, and the y-axis between linear and log, without asking the run again. Data is
// appended or replaced from a step on (a resumed run repeats steps). Curves that follow the same
// rows (one MoE layer's metrics across plots) can share one step and wall-time column
// (PlotKeys), and values are kept as float (7 significant digits, more than a plot, its read-out
// or an export shows): a long run's rows then cost 4 bytes a curve instead of 24. Curves draw a
// decimation (CurveDecimator); the rows themselves are all kept.
//
// Following: until the user drags or zooms, the axes follow the data (rescale after each
// update). A drag or wheel zoom stops following; a double-click (or resetView()) resumes it.
// Hover shows a read-out of every curve's value at the nearest row under the mouse.
#include <QPen>
#include <QString>
#include <QVector>
#include <memory>
#include <vector>

#include <qcustomplot.h>

#include "widgets/curve_decimator.h"

namespace moe::ui {

// A std::vector column (what RunSeries hands out) as the QVector the plot takes.
inline QVector<double> toQVector(const std::vector<double>& column) {
  return {column.begin(), column.end()};
}

// A step and wall-time column that several curves share, in one plot or several. Its owner
// updates it first (replaceFrom), then each sharing curve's values (replaceValuesFrom, same
// `from`); until then those curves show the rows both have.
class PlotKeys {
 public:
  // Rows with step >= from are dropped, then these (sorted by step) appended; from = +inf (or
  // NaN) only appends. Rows sent again unchanged stay as they were.
  void replaceFrom(double from, const QVector<double>& step, const QVector<double>& t);
  void reserve(qsizetype rows);
  void clear();

  const QVector<double>& step() const { return step_; }
  const QVector<double>& t() const { return t_; }
  qsizetype size() const { return step_.size(); }
  // The first row the last replaceFrom() changed or added: rows before it are as they were.
  qsizetype changedFrom() const { return changed_from_; }

 private:
  QVector<double> step_, t_;
  qsizetype changed_from_ = 0;
};

class TimeSeriesPlot : public QCustomPlot {
  Q_OBJECT

 public:
  enum class XMode { Step, WallTime };

  // The rows of one curve; t is seconds since the run started (telemetry's `t`).
  struct Rows {
    QVector<double> step, t, value;
  };

  explicit TimeSeriesPlot(const QString& y_label, QWidget* parent = nullptr);

  // Adds a curve and returns its index. `markers`: draw points only (eval results).
  int addCurve(const QString& name, const QPen& pen, bool markers = false);
  int curveCount() const;
  QString curveName(int curve) const;
  void setCurveVisible(int curve, bool visible);
  bool curveVisible(int curve) const;
  // The curve is named in the legend only while it has rows: an eval series before the first
  // eval would name a curve the plot does not draw.
  void setListedOnlyWithRows(int curve, bool on = true);
  void removeCurves();  // every curve goes (the compare view rebuilds its set)

  // Rows with step >= from are dropped, then the given rows (sorted by step) are appended.
  // Pass from = +inf to only append. The sizes of step, t and value must match. A curve that
  // shared its keys gets its own copy of them first.
  void replaceFrom(int curve, double from, const QVector<double>& step, const QVector<double>& t,
                   const QVector<double>& value);
  void setRows(int curve, const Rows& rows);  // replaces everything; the curve's own keys
  // The curve takes its steps and times from `keys` from now on (its values are dropped).
  void shareKeys(int curve, std::shared_ptr<const PlotKeys> keys);
  // For a curve sharing keys, after keys->replaceFrom(from, ...): its values from `from` on,
  // one per key row the update sent.
  void replaceValuesFrom(int curve, double from, const QVector<double>& value);
  // A copy (the key columns are implicitly shared, the values widened from float). Rows a
  // shared key column holds beyond the curve's values are left out.
  Rows rows(int curve) const;
  // Without a copy: the number of rows, and one row's value (as stored: float precision).
  qsizetype rowCount(int curve) const;
  double value(int curve, qsizetype row) const;

  XMode xMode() const;
  void setXMode(XMode mode);  // relabels the x-axis ("step" / "wall time (s)") and redraws
  bool logY() const;
  void setLogY(bool on);  // log ticker; non-positive values are not drawn

  // Whether the axes follow the data (no user zoom/drag since the last reset).
  bool followsData() const;
  // Fits both axes to the visible curves and resumes following.
  void resetView();

  // Call after a batch of replaceFrom()/setRows(): rescales when following, queues a replot.
  void refreshView();
  // A queued replot, or, on a hidden page, one when it is shown.
  void requestReplot();
  // Room for this many rows per curve (the run's expected length): no regrowth copies and no
  // spare capacity as the run grows. Applies to curves added later too.
  void reserveRows(qsizetype rows);

  // The read-out the hover shows for a key on the x-axis (current x mode): the nearest row of
  // each visible curve, e.g. "step 120   loss 2.31   smoothed 2.35". Empty when no data.
  QString readoutAt(double x) const;

  // Stops following as a user drag would (emits followChanged(false) if it was following);
  // PlotSync calls it on the other plots of a group.
  void stopFollowing();

 signals:
  // The user dragged or zoomed (followsData() is now false), or resetView() ran (true).
  void followChanged(bool follows);
  // The mouse is over x (current x mode) or left the plot (NaN): for hover lines in a group.
  void hoverMoved(double x);

 public slots:
  // Shows the hover line and read-out at x (NaN hides them); called by PlotSync for the
  // plots the mouse is not over.
  void showHover(double x);

 protected:
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  struct Curve {
    QString name;
    QCPGraph* graph = nullptr;
    std::shared_ptr<const PlotKeys> keys;  // never null: shared, or `own`
    std::shared_ptr<PlotKeys> own;         // the curve's own keys; null while it shares
    QVector<float> value;                  // float: half the memory, still far finer than a pixel
    CurveDecimator decimated;              // all rows, for drawing the whole run
    bool visible = true;
    bool stale = false;  // the graph does not show the newest rows yet
    bool listed_only_with_rows = false;
  };

  const QVector<double>& keyColumn(const Curve& c) const;
  static qsizetype rowCount(const Curve& c);  // rows with both a key and a value
  // The value half of replaceFrom(), once the curve's keys were updated.
  void takeValues(int curve, double from, const QVector<double>& value);
  void appendToGraph(int curve, int first_row);  // rows from first_row on, in the current modes
  void rebuildGraph(int curve);
  void rebuildGraphs();
  // Hands the graph what to draw: the decimated whole, or the rows in view when zoomed in.
  void syncGraph(int curve);
  void syncGraphs();
  // A plot on a hidden page of a shown window: drawing waits until it is shown (showEvent).
  bool drawingDeferred() const;
  void fitAxes();                        // x to all data, y with headroom
  void fitY(const QCPRange& key_range);  // QCPRange() = all keys
  // Lists the visible curves (those with rows, where a curve asks so); rebuilds the legend only
  // when that list changed, as data updates call it.
  void updateLegend();
  void onXRangeChanged();
  // The read-out's parts ("step 120", "loss 2.31", ...) and the key of the row shown first.
  QStringList readoutParts(double x, double* row_key) const;

  QVector<Curve> curves_;
  XMode x_mode_ = XMode::Step;
  bool log_y_ = false;
  bool follows_ = true;
  bool user_input_ = false;     // a wheel or drag is being handled: range changes are the user's
  double hover_x_;              // NaN while no hover is shown
  bool view_deferred_ = false;  // a refresh came while drawing was deferred
  qsizetype reserved_rows_ = 0;
  QVector<bool> legend_listed_;  // per curve: named in the legend now
  QCPLayer* hover_layer_ = nullptr;
  QCPItemStraightLine* hover_line_ = nullptr;
  QCPItemText* hover_text_ = nullptr;
};

}  // namespace moe::ui

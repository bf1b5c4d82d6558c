// Markers at steps of a TimeSeriesPlot, the shared part of the capture and adaptive_r markers: a
// vertical line across the axis rect and a label item on it, each placed at its step or its wall
// time as the plot's x mode says, again before every drawing (an x mode switch moves them along).
// A subclass adds the markers and dresses their labels.
#pragma once

#include <QColor>
#include <QObject>
#include <QVector>

#include <cstdint>

class QCPAbstractItem;
class QCPItemStraightLine;
class QCPItemText;

namespace moe::ui {

class TimeSeriesPlot;

class StepMarkers : public QObject {
  Q_OBJECT

 public:
  int count() const { return static_cast<int>(markers_.size()); }
  double x(int marker) const;  // where it stood on the x-axis when last drawn

 protected:
  // A child of `plot`, which owns the items. Lines in `color` and `line_style`; labels at
  // `label_y` of the axis rect's height from its top.
  StepMarkers(TimeSeriesPlot* plot, QColor color, Qt::PenStyle line_style, double label_y);

  TimeSeriesPlot* plot() const { return plot_; }
  // Removes every marker from the plot.
  void clear();
  // A marker at `step` (wall time `t`), placed at once; its label, in the markers' colour, is the
  // caller's to fill (text, font, alignment). Call plot()->requestReplot() after the last one.
  QCPItemText* add(int64_t step, double t);
  // add() with `text` as its label, on a light box, to the right of the line.
  QCPItemText* addBoxed(int64_t step, double t, const QString& text);
  QCPItemText* labelItem(int marker) const { return markers_[marker].label; }
  // The marker whose line or label `item` is, or -1.
  int markerOf(const QCPAbstractItem* item) const;

 private:
  struct Marker {
    int64_t step = 0;
    double t = 0;
    QCPItemStraightLine* line = nullptr;
    QCPItemText* label = nullptr;
  };

  void place();
  void place(const Marker& marker, bool by_step);

  TimeSeriesPlot* plot_;
  QColor color_;
  Qt::PenStyle line_style_;
  double label_y_;
  QVector<Marker> markers_;
};

}  // namespace moe::ui

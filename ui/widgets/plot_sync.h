#pragma once
// PlotSync: keeps the x-ranges of several plots equal (zoom or drag one, the others follow),
// shares the hover line, and resets them together on a double-click. Plots may come and go;
// a deleted plot leaves the group by itself.
#include <QList>
#include <QObject>
#include <QPointer>

namespace moe::ui {

class TimeSeriesPlot;

class PlotSync : public QObject {
  Q_OBJECT

 public:
  explicit PlotSync(QObject* parent = nullptr);

  void add(TimeSeriesPlot* plot);
  void remove(TimeSeriesPlot* plot);
  QList<TimeSeriesPlot*> plots() const;

  // Applies to every plot in the group.
  void resetViews();

 private:
  QList<QPointer<TimeSeriesPlot>> plots_;
  bool syncing_ = false;  // guards against the range-changed echo
};

}  // namespace moe::ui

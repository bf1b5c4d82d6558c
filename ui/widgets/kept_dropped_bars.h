// The picture of one routing's demand per expert, shared by the dashboard's Expert load bars and
// the What-if view's routing bars: over an expert axis (a tick per expert), each bar split where
// the capacity cuts it, the kept choices in blue and the dropped ones in vermillion stacked on
// top, the capacity as a dashed line; a title and a one-line legend in rows above the axis rect,
// where they cover no bar.
#pragma once

#include <QFont>
#include <QString>
#include <QVector>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPTextElement;

namespace moe::ui {

// The items a plot set up by buildKeptDroppedBars() draws with; the plot owns them.
struct KeptDroppedBars {
  QCPBars* kept = nullptr;
  QCPBars* dropped = nullptr;  // stacked on `kept`
  QCPGraph* capacity = nullptr;
  QCPTextElement* title = nullptr;

  // No bars and no capacity line, the axes at an empty expert 0 (the title is the caller's).
  void clear();
  // Expert e's bar: counts[e] split at kept[e] (how much was kept is the caller's rule), the
  // capacity line across all of them, the x-axis over the experts. Returns the highest bar or
  // capacity, for the y-axis the caller sets.
  double show(const QVector<double>& counts, const QVector<double>& kept, double capacity);
};

// Styles `plot` (stylePlot, no interactions: every expert fits) and adds the bars, the line, the
// title (in `title_font`) and the legend. `dropped_name` is the dropped series' legend entry.
KeptDroppedBars buildKeptDroppedBars(QCustomPlot* plot, const QString& y_label,
                                     const QString& dropped_name, const QFont& title_font);

}  // namespace moe::ui

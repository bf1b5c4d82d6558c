// One routing's demand per expert (a replay answer): each bar split where the capacity cuts it,
// kept in blue and dropped in vermillion stacked on top, the capacity as a dashed line, as the
// dashboard's Expert load bars draw a step (both with widgets/kept_dropped_bars.h). The title
// names the setting and the dropped share.
#pragma once

#include <QString>

#include <qcustomplot.h>

#include "base/whatif/replay_answer.h"
#include "widgets/kept_dropped_bars.h"

namespace moe::ui {

class RoutingBars : public QCustomPlot {
  Q_OBJECT

 public:
  explicit RoutingBars(const QString& heading, QWidget* parent = nullptr);

  // Draws `answer` under the title "<heading> · <setting> · 3.1 % dropped".
  void showAnswer(const ReplayAnswer& answer, const QString& setting);
  // A message in the title and no bars: waiting, refused, failed.
  void showMessage(const QString& message);
  // The y-axis' top: the two routings side by side share one scale.
  void setTop(double top);
  double highest() const { return highest_; }  // the highest bar or capacity drawn

  QCPBars* keptBars() const { return bars_.kept; }
  QCPBars* droppedBars() const { return bars_.dropped; }
  QCPGraph* capacityLine() const { return bars_.capacity; }
  QString title() const;

 private:
  QString heading_;
  KeptDroppedBars bars_;
  double highest_ = 0;
};

}  // namespace moe::ui

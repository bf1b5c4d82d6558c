// ExpertLoadBars: one MoE layer's latest tokens per expert as bars, against its capacity, drawn
// as widgets/kept_dropped_bars.h draws them. Each bar is split where the capacity cuts it: the
// kept tokens (min(count, capacity), docs/ROUTING.md, "Dropping") in blue, the overflow the layer
// dropped stacked on top in vermillion, and the capacity as a dashed line (a dropless layer's
// capacity is its busiest expert's demand; capacity 0 drops everything). The title says layer,
// step and dropped share: "layer 0 · step 420 · 3.1 % dropped".
//
// updateFrom() re-reads only when the series' version or the layer changed.
#pragma once

#include <QString>

#include <cstdint>

#include <qcustomplot.h>

#include "widgets/kept_dropped_bars.h"

namespace moe::ui {

class RunSeries;

class ExpertLoadBars : public QCustomPlot {
  Q_OBJECT

 public:
  explicit ExpertLoadBars(QWidget* parent = nullptr);

  void setLayer(int64_t layer);
  int64_t layer() const { return layer_; }
  void updateFrom(const RunSeries& series);

  // What is drawn, for tests: kept tokens, the overflow stacked on them, the capacity line.
  QCPBars* keptBars() const { return bars_.kept; }
  QCPBars* overflowBars() const { return bars_.dropped; }
  QCPGraph* capacityLine() const { return bars_.capacity; }
  QString title() const;

 private:
  void clearBars();

  int64_t layer_ = 0;
  KeptDroppedBars bars_;

  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
  bool stale_ = true;
};

}  // namespace moe::ui

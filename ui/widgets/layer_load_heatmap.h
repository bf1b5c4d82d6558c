// LayerLoadHeatmap: every MoE layer's latest load at a glance, layers (y) x experts (x). A cell's
// colour is the expert's tokens over the mean of its layer's experts (1 = a fair share) on the
// same diverging 0..2 scale as ExpertLoadHeatmap's relative view, so one overloaded expert in one
// layer stands out of the whole model. Layers with fewer experts than the widest leave the cells
// past their last expert blank.
//
// updateFrom() re-reads only when the series' version changed (cheap at 25 fps otherwise).
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <qcustomplot.h>

#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui {

class RunSeries;

class LayerLoadHeatmap : public QCustomPlot {
  Q_OBJECT

 public:
  explicit LayerLoadHeatmap(QWidget* parent = nullptr);

  void updateFrom(const RunSeries& series);

  // What is drawn: each layer's newest expert_load, by layer; row i of the map is loads()[i].
  const std::vector<protocol::ExpertLoadEvent>& loads() const { return loads_; }
  size_t maxExperts() const { return max_experts_; }
  QCPColorMap* colorMap() const { return map_; }
  // count / layer mean of one cell (row = index into loads()); NaN past the layer's experts or
  // for a layer that routed no tokens.
  double relativeLoad(size_t row, size_t expert) const;
  // "layer 1, expert 3: 312 tokens, 1.40x mean (step 420)" at a point in plot coordinates
  // (expert, row); empty off the map.
  QString tooltipAt(double expert, double row) const;

 private:
  void rebuild();
  void showTooltip(QMouseEvent* event);

  std::vector<protocol::ExpertLoadEvent> loads_;
  size_t max_experts_ = 0;
  QCPColorMap* map_ = nullptr;

  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
};

}  // namespace moe::ui

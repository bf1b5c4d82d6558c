// SelectionBiasHeatmap: one MoE layer's aux-loss-free selection bias over the run (docs/ROUTING.md,
// "Aux-loss-free bias balancing"), experts (y) x steps (x), from the expert_load events' `bias`.
// The bias only moves which experts are chosen, and adding one constant to every expert's bias
// changes no choice; the sign rule's updates drift all of them alike wherever the demand's mean
// and median differ. So a cell is coloured by the expert's bias minus the mean over the layer's
// experts in that cell: green draws tokens to it relative to the others, purple pushes them away.
// A diverging scale, symmetric around 0; with 8 to 64 experts a row each reads better than as many
// lines. Bins of logged steps as in ExpertLoadHeatmap; hover tells expert, steps, the bias itself
// and its difference from the mean.
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>

#include <qcustomplot.h>

#include "base/telemetry/series_columns.h"
#include "widgets/step_heatmap.h"

namespace moe::ui {

class RunSeries;

class SelectionBiasHeatmap : public QCustomPlot {
  Q_OBJECT

 public:
  explicit SelectionBiasHeatmap(QWidget* parent = nullptr);

  void setLayer(int64_t layer);
  int64_t layer() const { return layer_; }
  void updateFrom(const RunSeries& series);

  // Whether the layer's steps carry a bias (the run balances with one).
  bool hasBias() const { return has_bias_; }
  const LoadMatrix& matrix() const { return matrix_; }
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return scale_; }
  // The colour of a cell: the bias minus the mean over the bin's experts; NaN without a bias.
  double cellValue(size_t bin, size_t expert) const;
  // "expert 5, steps 100–120: bias 0.49 (+0.03 vs mean)" for a point in plot coordinates (step,
  // expert); empty off the map.
  QString tooltipAt(double step, double expert) const;

 private:
  void rebuild();

  int64_t layer_ = 0;
  LoadMatrix matrix_;
  bool has_bias_ = false;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  StepHeatmapSource source_;
};

}  // namespace moe::ui

#pragma once
// The dashboard's expert-load page: for a chosen layer, its experts x steps heatmap (how the
// load moved over the run) and its latest counts against capacity; for the whole model, every
// layer's latest load relative to a fair share.
#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;

namespace moe::ui {

class ExpertLoadBars;
class ExpertLoadHeatmap;
class LayerLoadHeatmap;
class RunSeries;

class LoadPage : public QWidget {
  Q_OBJECT

 public:
  explicit LoadPage(QWidget* parent = nullptr);

  // Redraws what changed (cheap when nothing did); picks up newly seen layers.
  void updateFrom(const RunSeries& series);

  int64_t layer() const;
  void setLayer(int64_t layer);
  ExpertLoadHeatmap* heatmap() const { return heatmap_; }
  LayerLoadHeatmap* layersHeatmap() const { return layers_; }
  ExpertLoadBars* bars() const { return bars_; }

 private:
  void updateLayerChoices(const std::vector<int64_t>& layers);

  QComboBox* layer_box_;
  QComboBox* value_box_;
  ExpertLoadHeatmap* heatmap_;
  LayerLoadHeatmap* layers_;
  ExpertLoadBars* bars_;
};

}  // namespace moe::ui

#pragma once
// The dashboard's expert-load page: for a chosen layer, its experts x steps heatmap (how the
// load moved over the run), its selection bias over the steps (a run with moe.bias_balancing) and
// its latest counts against capacity, with the shared expert apart from them (a decoder with one);
// for the whole model, every layer's latest load relative to a fair share.
#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;

namespace moe::ui {

class ExpertLoadBars;
class ExpertLoadHeatmap;
class LayerLoadHeatmap;
class RunSeries;
class SelectionBiasHeatmap;
class SharedExpertNote;

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
  SelectionBiasHeatmap* biasHeatmap() const { return bias_; }
  SharedExpertNote* sharedExpertNote() const { return shared_; }

 private:
  void updateLayerChoices(const std::vector<int64_t>& layers);

  QComboBox* layer_box_;
  QComboBox* value_box_;
  ExpertLoadHeatmap* heatmap_;
  LayerLoadHeatmap* layers_;
  ExpertLoadBars* bars_;
  SelectionBiasHeatmap* bias_;
  QWidget* bias_pane_;  // the bias heatmap and its title, shown when the run has a bias
  SharedExpertNote* shared_;
};

}  // namespace moe::ui

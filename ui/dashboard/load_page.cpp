#include "dashboard/load_page.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "base/telemetry/run_series.h"
#include "widgets/expert_load_bars.h"
#include "widgets/expert_load_heatmap.h"
#include "widgets/layer_load_heatmap.h"
#include "widgets/plot_export.h"
#include "widgets/selection_bias_heatmap.h"
#include "widgets/shared_expert_note.h"

namespace moe::ui {

LoadPage::LoadPage(QWidget* parent) : QWidget(parent) {
  layer_box_ = new QComboBox(this);
  layer_box_->setMinimumContentsLength(10);
  layer_box_->setToolTip(tr("The MoE layer the heatmap and the bars show"));
  value_box_ = new QComboBox(this);
  value_box_->addItem(tr("Tokens routed"));
  value_box_->addItem(tr("Relative to a fair share"));
  value_box_->setToolTip(tr("Colour the heatmap by tokens, or by tokens / the layer's mean"));
  heatmap_ = new ExpertLoadHeatmap(this);
  layers_ = new LayerLoadHeatmap(this);
  bars_ = new ExpertLoadBars(this);
  bias_ = new SelectionBiasHeatmap(this);
  shared_ = new SharedExpertNote(this);
  installPlotMenu(heatmap_, "expert-load-heatmap");
  installPlotMenu(bias_, "selection-bias-heatmap");
  installPlotMenu(layers_, "layer-load-heatmap");
  installPlotMenu(bars_, "expert-load");

  auto* choices = new QHBoxLayout;
  choices->addWidget(new QLabel(tr("Layer"), this));
  choices->addWidget(layer_box_);
  choices->addSpacing(14);
  choices->addWidget(new QLabel(tr("Colour"), this));
  choices->addWidget(value_box_);
  choices->addStretch(1);

  bias_pane_ = new QWidget(this);
  auto* bias_layout = new QVBoxLayout(bias_pane_);
  bias_layout->setContentsMargins(0, 0, 0, 0);
  bias_layout->setSpacing(0);
  auto* bias_title = new QLabel(
      tr("Selection bias (moe.bias_balancing), against the layer's mean: added to the scores "
         "to choose experts; green draws tokens to an expert, purple pushes them away"),
      bias_pane_);
  bias_title->setWordWrap(true);
  bias_title->setContentsMargins(6, 2, 6, 0);
  bias_layout->addWidget(bias_title);
  bias_layout->addWidget(bias_, 1);
  bias_pane_->setVisible(false);

  auto* bars_pane = new QWidget(this);  // the shared expert's note above the routed experts
  auto* bars_layout = new QVBoxLayout(bars_pane);
  bars_layout->setContentsMargins(0, 0, 0, 0);
  bars_layout->setSpacing(2);
  bars_layout->addWidget(shared_);
  bars_layout->addWidget(bars_, 1);

  auto* lower = new QSplitter(Qt::Horizontal, this);
  lower->addWidget(bars_pane);
  lower->addWidget(layers_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(heatmap_);
  splitter->addWidget(bias_pane_);
  splitter->addWidget(lower);
  splitter->setSizes({340, 240, 300});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(choices);
  layout->addWidget(splitter, 1);

  connect(layer_box_, &QComboBox::currentIndexChanged, this, [this] {
    if (layer_box_->currentIndex() < 0) return;
    heatmap_->setLayer(layer());
    bias_->setLayer(layer());
    bars_->setLayer(layer());
  });
  connect(value_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
    heatmap_->setValueKind(index == 1 ? ExpertLoadHeatmap::Kind::kRelative
                                      : ExpertLoadHeatmap::Kind::kCounts);
  });
}

int64_t LoadPage::layer() const {
  return layer_box_->currentData().toLongLong();
}

void LoadPage::setLayer(int64_t layer) {
  const int index = layer_box_->findData(QVariant::fromValue<qlonglong>(layer));
  if (index >= 0) layer_box_->setCurrentIndex(index);
}

void LoadPage::updateFrom(const RunSeries& series) {
  updateLayerChoices(series.layers());
  heatmap_->updateFrom(series);
  layers_->updateFrom(series);
  bars_->updateFrom(series);
  bias_->updateFrom(series);
  bias_pane_->setVisible(bias_->hasBias());
  shared_->updateFrom(series);
}

void LoadPage::updateLayerChoices(const std::vector<int64_t>& layers) {
  if (static_cast<size_t>(layer_box_->count()) == layers.size()) return;
  const QVariant keep = layer_box_->currentData();
  QSignalBlocker block(layer_box_);
  layer_box_->clear();
  for (int64_t layer : layers)
    layer_box_->addItem(tr("MoE layer %1").arg(layer), QVariant::fromValue<qlonglong>(layer));
  const int index = keep.isValid() ? layer_box_->findData(keep) : 0;
  layer_box_->setCurrentIndex(std::max(index, 0));
  heatmap_->setLayer(layer());
  bias_->setLayer(layer());
  bars_->setLayer(layer());
}

}  // namespace moe::ui

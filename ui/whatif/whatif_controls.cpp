#include "whatif/whatif_controls.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace moe::ui {

namespace {
constexpr double kSliderStep = 0.05;  // the slider's resolution; the box takes any value
constexpr int kSliderMin = -80, kSliderMax = 160;  // -4 … 8
constexpr double kMaxFactor = 65536;               // the engine's bound (docs/ROUTING.md)
}  // namespace

WhatIfControls::WhatIfControls(QWidget* parent) : QWidget(parent) {
  capacity_slider_ = new QSlider(Qt::Horizontal, this);
  capacity_slider_->setRange(kSliderMin, kSliderMax);
  capacity_slider_->setMinimumWidth(220);
  capacity_slider_->setToolTip(
      tr("Capacity factor f: > 0 fixed capacity, 0 dropless, "
         "< 0 dropless up to a cap of -f"));
  capacity_ = new QDoubleSpinBox(this);
  capacity_->setRange(-kMaxFactor, kMaxFactor);
  capacity_->setDecimals(3);
  capacity_->setSingleStep(kSliderStep);
  capacity_->setToolTip(capacity_slider_->toolTip());
  regime_ = new QLabel(this);
  regime_->setMinimumWidth(regime_->fontMetrics().horizontalAdvance("dropless up to a cap  "));
  top_k_ = new QSpinBox(this);
  top_k_->setRange(1, 2);
  top_k_->setToolTip(tr("Experts each token is sent to"));
  bpr_ = new QCheckBox(tr("Batch-prioritized"), this);
  bpr_->setToolTip(tr("The most confident tokens claim slots first (docs/ROUTING.md)"));
  noise_ = new QDoubleSpinBox(this);
  noise_->setRange(0, 100);
  noise_->setDecimals(3);
  noise_->setSingleStep(0.1);
  noise_->setToolTip(tr("Standard deviation of the noise added to the gate's logits"));
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1 << 30);
  seed_->setToolTip(tr("Seed of the noise's draw"));
  normalize_ = new QCheckBox(tr("Normalize gate"), this);
  normalize_->setToolTip(tr("Gate values of a token's kept choices sum to 1"));
  reset_ = new QPushButton(tr("Captured setting"), this);
  reset_->setToolTip(tr("Back to the setting the tokens were captured under"));

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setHorizontalSpacing(8);
  grid->addWidget(new QLabel(tr("Capacity factor"), this), 0, 0);
  grid->addWidget(capacity_slider_, 0, 1);
  grid->addWidget(capacity_, 0, 2);
  grid->addWidget(regime_, 0, 3);
  grid->addWidget(new QLabel(tr("Top-k"), this), 0, 4);
  grid->addWidget(top_k_, 0, 5);
  grid->addWidget(bpr_, 0, 6);
  grid->addWidget(new QLabel(tr("Gate noise"), this), 1, 0);
  auto* noise_row = new QHBoxLayout;
  noise_row->setSpacing(6);
  noise_row->addWidget(noise_);
  noise_row->addSpacing(8);
  noise_row->addWidget(new QLabel(tr("seed"), this));
  noise_row->addWidget(seed_);
  noise_row->addStretch(1);
  grid->addLayout(noise_row, 1, 1, 1, 3);
  grid->addWidget(normalize_, 1, 4, 1, 2);
  grid->addWidget(reset_, 1, 6);
  grid->setColumnStretch(7, 1);

  connect(capacity_slider_, &QSlider::valueChanged, this, [this](int v) {
    if (quiet_) return;
    const QSignalBlocker block(capacity_);
    capacity_->setValue(v * kSliderStep);
    changed();
  });
  connect(capacity_, &QDoubleSpinBox::valueChanged, this, [this](double f) {
    if (quiet_) return;
    const QSignalBlocker block(capacity_slider_);
    capacity_slider_->setValue(
        std::clamp(static_cast<int>(std::lround(f / kSliderStep)), kSliderMin, kSliderMax));
    changed();
  });
  connect(top_k_, &QSpinBox::valueChanged, this, &WhatIfControls::changed);
  connect(bpr_, &QCheckBox::toggled, this, &WhatIfControls::changed);
  connect(noise_, &QDoubleSpinBox::valueChanged, this, &WhatIfControls::changed);
  connect(seed_, &QSpinBox::valueChanged, this, &WhatIfControls::changed);
  connect(normalize_, &QCheckBox::toggled, this, &WhatIfControls::changed);
  connect(reset_, &QPushButton::clicked, this, [this] { setSetting(captured_); });
  setSetting(captured_);
}

void WhatIfControls::setLayer(int64_t experts, const RoutingSetting& captured) {
  quiet_ = true;
  top_k_->setRange(1, static_cast<int>(std::max<int64_t>(experts, 1)));
  quiet_ = false;
  captured_ = captured;
  setSetting(captured);
}

RoutingSetting WhatIfControls::setting() const {
  RoutingSetting s;
  s.capacity_factor = capacity_->value();
  s.top_k = top_k_->value();
  s.batch_prioritized_routing = bpr_->isChecked();
  s.gate_noise = noise_->value();
  s.seed = seed_->value();
  s.normalize_gate = normalize_->isChecked();
  return s;
}

void WhatIfControls::setSetting(const RoutingSetting& s) {
  quiet_ = true;
  capacity_->setValue(s.capacity_factor);
  capacity_slider_->setValue(std::clamp(
      static_cast<int>(std::lround(s.capacity_factor / kSliderStep)), kSliderMin, kSliderMax));
  top_k_->setValue(static_cast<int>(s.top_k));
  bpr_->setChecked(s.batch_prioritized_routing);
  noise_->setValue(s.gate_noise);
  seed_->setValue(static_cast<int>(s.seed));
  normalize_->setChecked(s.normalize_gate);
  quiet_ = false;
  changed();
}

QString WhatIfControls::capacityRegime() const {
  const double f = capacity_->value();
  return f > 0 ? tr("fixed capacity") : f == 0 ? tr("dropless") : tr("dropless up to a cap");
}

void WhatIfControls::changed() {
  if (quiet_) return;
  regime_->setText(capacityRegime());
  seed_->setEnabled(noise_->value() > 0);
  const RoutingSetting now = setting();
  if (now == emitted_) return;
  emitted_ = now;
  emit settingChanged(now);
}

}  // namespace moe::ui

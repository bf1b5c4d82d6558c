// The What-if setting's controls: capacity factor (a slider over -4 … 8 and a box for any value
// the engine takes: > 0 fixed capacity, 0 dropless, < 0 dropless up to a cap), top-k (1 … E),
// batch-prioritized routing, gate noise with the seed of its draw, and normalize_gate; and a
// button back to the captured setting. Every change emits settingChanged at once: the replay
// server coalesces a drag.
#pragma once

#include <QWidget>

#include "base/whatif/routing_setting.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace moe::ui {

class WhatIfControls : public QWidget {
  Q_OBJECT

 public:
  explicit WhatIfControls(QWidget* parent = nullptr);

  // The layer's expert count bounds top-k; `captured` is what Reset goes back to.
  void setLayer(int64_t experts, const RoutingSetting& captured);
  RoutingSetting setting() const;
  void setSetting(const RoutingSetting& s);  // emits settingChanged once when it differs

  QSlider* capacitySlider() const { return capacity_slider_; }
  QDoubleSpinBox* capacityBox() const { return capacity_; }
  QSpinBox* topKBox() const { return top_k_; }
  QCheckBox* batchPrioritizedBox() const { return bpr_; }
  QDoubleSpinBox* gateNoiseBox() const { return noise_; }
  QSpinBox* seedBox() const { return seed_; }
  QCheckBox* normalizeBox() const { return normalize_; }
  QString capacityRegime() const;  // "fixed capacity", "dropless", "dropless up to a cap"

 signals:
  void settingChanged(const moe::ui::RoutingSetting& setting);

 private:
  void changed();

  QSlider* capacity_slider_;
  QDoubleSpinBox* capacity_;
  QLabel* regime_;
  QSpinBox* top_k_;
  QCheckBox* bpr_;
  QDoubleSpinBox* noise_;
  QSpinBox* seed_;
  QCheckBox* normalize_;
  QPushButton* reset_;
  RoutingSetting captured_;
  RoutingSetting emitted_;
  bool quiet_ = false;  // while setSetting fills the boxes
};

}  // namespace moe::ui

// SweepForm: the Profiler's sweep set-up. One line of comma-separated values per key, grid or
// paired, iterations, minimum time per measurement and the naive baseline; the problems the
// engine would report (the protocol's own validation) and the number of configs with the
// expected duration, both as the user types.
#pragma once

#include <QStringList>
#include <QWidget>

#include "base/profiler/sweep_spec.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace moe::ui {

class SweepForm : public QWidget {
  Q_OBJECT

 public:
  explicit SweepForm(QWidget* parent = nullptr);

  SweepSpec spec() const;
  void setSpec(const SweepSpec& spec);
  QStringList problems() const { return problems_; }
  bool isValid() const { return problems_.isEmpty(); }
  // The per-config overhead past sweeps measured (sweepOverheadSeconds), for the estimate.
  void setMeasuredOverhead(double seconds);
  double estimateSeconds() const;

  QLineEdit* valuesEdit(const QString& key) const;  // e.g. "moe.experts"
  QRadioButton* pairedButton() const { return paired_; }
  QLabel* estimateLabel() const { return estimate_; }
  QLabel* problemsLabel() const { return problems_label_; }

 signals:
  void changed();  // the spec, its problems or its estimate changed

 private:
  void update();

  QList<QLineEdit*> edits_;  // one per SweepSpec::defaults() key, in its order
  QRadioButton* grid_;
  QRadioButton* paired_;
  QSpinBox* iters_;
  QDoubleSpinBox* min_time_;
  QCheckBox* naive_;
  QLabel* estimate_;
  QLabel* problems_label_;
  QStringList problems_;
  double overhead_s_ = 1.0;
  bool measured_ = false;
};

}  // namespace moe::ui

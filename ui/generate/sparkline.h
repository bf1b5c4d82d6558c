// Sparkline: a small line of recent values (the decode steps' tokens/s) with the last value's
// dot, scaled from 0 to the highest value; no axes, sized for a row of figures.
#pragma once

#include <QWidget>

#include <vector>

namespace moe::ui {

class Sparkline : public QWidget {
  Q_OBJECT

 public:
  explicit Sparkline(QWidget* parent = nullptr);

  void setValues(std::vector<double> values);
  const std::vector<double>& values() const { return values_; }
  QSize sizeHint() const override { return {220, 44}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<double> values_;
};

}  // namespace moe::ui

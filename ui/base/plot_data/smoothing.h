#pragma once
// Debiased exponential moving average (as TensorBoard smooths scalars): with weight w in
// [0, 1), s_i = (w*a_{i-1} + (1-w)*x_i) / (1 - w^(i+1)), so early values are not pulled
// towards zero. Non-finite inputs pass through unchanged and do not enter the average.
#include <QVector>

namespace moe::ui {

class EmaSmoother {
 public:
  explicit EmaSmoother(double weight = 0.9) : weight_(weight) {}
  double weight() const { return weight_; }
  void reset() { avg_ = norm_ = 0; }
  double add(double value);

 private:
  double weight_;
  double avg_ = 0, norm_ = 0;
};

QVector<double> smoothed(const QVector<double>& values, double weight);

}  // namespace moe::ui

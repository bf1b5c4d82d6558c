// PhaseShareBar: where a decode step's time goes, as one bar split by phase (attention, router,
// dispatch, experts, combine, sampling, other: the mean milliseconds per step) with a legend of
// each phase's milliseconds and share. The phases the dashboard also has keep its colours.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

namespace moe::ui {

class PhaseShareBar : public QWidget {
  Q_OBJECT

 public:
  explicit PhaseShareBar(QWidget* parent = nullptr);

  // Each phase's mean milliseconds per decode step, in the order to draw them.
  void setPhases(std::vector<std::pair<QString, double>> mean_ms);
  const std::vector<std::pair<QString, double>>& phases() const { return phases_; }

  static QColor colorOf(const QString& phase);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<std::pair<QString, double>> phases_;
};

}  // namespace moe::ui

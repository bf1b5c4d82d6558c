#include "generate/phase_share_bar.h"

#include <QPainter>

#include "draw/palette.h"

namespace moe::ui {

namespace {

constexpr int kBarHeight = 16;
constexpr int kLegendColumns = 2;

}  // namespace

PhaseShareBar::PhaseShareBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

// Training's phases keep the dashboard's colours (the router is its gate); decoding has no a2a
// or backward, so attention and sampling take those two colours.
QColor PhaseShareBar::colorOf(const QString& phase) {
  if (phase == QLatin1String("router")) return phaseColor("gate");
  if (phase == QLatin1String("attention")) return phaseColor("a2a");
  if (phase == QLatin1String("sampling")) return phaseColor("backward");
  return phaseColor(phase.toStdString());
}

void PhaseShareBar::setPhases(std::vector<std::pair<QString, double>> mean_ms) {
  phases_ = std::move(mean_ms);
  updateGeometry();
  update();
}

QSize PhaseShareBar::sizeHint() const {
  const int rows = (static_cast<int>(phases_.size()) + kLegendColumns - 1) / kLegendColumns;
  return {260, kBarHeight + 6 + std::max(1, rows) * fontMetrics().height()};
}

QSize PhaseShareBar::minimumSizeHint() const {
  return {160, sizeHint().height()};
}

void PhaseShareBar::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  double total = 0;
  for (const auto& [name, ms] : phases_) total += ms;
  const QRect bar(0, 0, width() - 1, kBarHeight);
  if (total <= 0) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignLeft | Qt::AlignTop,
                     tr("Phase times appear with the first decode steps."));
    return;
  }
  double x = bar.left();
  for (const auto& [name, ms] : phases_) {
    const double w = ms / total * bar.width();
    painter.fillRect(QRectF(x, bar.top(), w, bar.height()), colorOf(name));
    x += w;
  }
  // The legend: a swatch, the phase, its ms per step and share, in columns.
  const int line = fontMetrics().height();
  const int column_width = width() / kLegendColumns;
  for (size_t i = 0; i < phases_.size(); ++i) {
    const auto& [name, ms] = phases_[i];
    const int x0 = static_cast<int>(i % kLegendColumns) * column_width;
    const int y0 = kBarHeight + 6 + static_cast<int>(i / kLegendColumns) * line;
    painter.fillRect(QRect(x0, y0 + line / 2 - 4, 8, 8), colorOf(name));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(x0 + 12, y0, column_width - 14, line), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("%1  %2 ms · %3 %")
                         .arg(name)
                         .arg(ms, 0, 'f', ms < 10 ? 2 : 1)
                         .arg(100.0 * ms / total, 0, 'f', 0));
  }
}

}  // namespace moe::ui

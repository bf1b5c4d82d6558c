// The shared palette (palette.h).
#include "draw/palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "base/plot_data/phase_bins.h"
#include "protocol/telemetry_events.h"

namespace moe::ui {

QColor seriesColor(int index) {
  static const std::array<QColor, 7> kPalette = {
      QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),  QColor(213, 94, 0),
      QColor(204, 121, 167), QColor(86, 180, 233), QColor(120, 120, 120)};
  return kPalette[static_cast<size_t>(index) % kPalette.size()];
}

QColor expertColor(int expert) {
  constexpr int kBase = 7;  // seriesColor's colours
  const int e = expert < 0 ? 0 : expert % (3 * kBase);
  const QColor base = seriesColor(e % kBase);
  if (e < kBase) return base;
  return e < 2 * kBase ? base.lighter(150) : base.darker(150);
}

QColor phaseColor(const std::string& name) {
  const size_t rank = phaseRank(name);
  if (name == "other") return QColor(190, 190, 190);  // the rest: quiet grey
  if (rank < protocol::kPhaseNames.size()) return seriesColor(static_cast<int>(rank));
  return seriesColor(static_cast<int>(std::hash<std::string>{}(name) % 6)).lighter(140);
}

QColor viridisStop(int index) {
  static const std::array<QColor, kViridisStops> kStops = {
      QColor(0x44, 0x01, 0x54), QColor(0x48, 0x28, 0x78), QColor(0x3e, 0x49, 0x89),
      QColor(0x31, 0x68, 0x8e), QColor(0x26, 0x82, 0x8e), QColor(0x1f, 0x9e, 0x89),
      QColor(0x35, 0xb7, 0x79), QColor(0x6e, 0xce, 0x58), QColor(0xfd, 0xe7, 0x25)};
  return kStops[static_cast<size_t>(std::clamp(index, 0, kViridisStops - 1))];
}

QColor viridisColor(double t) {
  if (!std::isfinite(t)) return QColor(0, 0, 0, 0);
  const double at = std::clamp(t, 0.0, 1.0) * (kViridisStops - 1);
  const int lo = std::min(static_cast<int>(at), kViridisStops - 2);
  const double f = at - lo;
  const QColor a = viridisStop(lo), b = viridisStop(lo + 1);
  auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
  return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

}  // namespace moe::ui

#include "base/plot_data/readout_format.h"

#include <cmath>

namespace moe::ui {

namespace {
const QString kMissing = QStringLiteral("–");
}

QString formatReadoutValue(double value) {
  if (!std::isfinite(value)) return kMissing;
  // Counts and rates in the thousands read better whole ("13370") than as "1.337e+04".
  if (std::abs(value) >= 1e4 && std::abs(value) < 1e9) return QString::number(std::llround(value));
  return QString::number(value, 'g', 4);
}

QString formatReadoutStep(double step) {
  if (!std::isfinite(step)) return kMissing;
  return QString::number(static_cast<qint64>(std::llround(step)));
}

QString formatReadoutWallTime(double seconds) {
  if (!std::isfinite(seconds)) return kMissing;
  if (std::abs(seconds) < 60) return QString::number(seconds, 'f', 1) + QStringLiteral(" s");
  const qint64 total = std::llround(seconds);
  const QString sign = total < 0 ? QStringLiteral("-") : QString();
  const qint64 s = std::abs(total);
  const QString mm_ss = QStringLiteral("%1:%2")
                            .arg((s / 60) % 60, s >= 3600 ? 2 : 1, 10, QLatin1Char('0'))
                            .arg(s % 60, 2, 10, QLatin1Char('0'));
  if (s < 3600) return sign + mm_ss;
  return sign + QString::number(s / 3600) + QLatin1Char(':') + mm_ss;
}

QString durationText(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("\u2014");
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (seconds < 60) return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
  if (whole < 3600)
    return QStringLiteral("%1 min %2 s").arg(whole / 60).arg(whole % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1 h %2 min")
      .arg(whole / 3600)
      .arg((whole % 3600) / 60, 2, 10, QLatin1Char('0'));
}

}  // namespace moe::ui

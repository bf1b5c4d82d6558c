#include "base/planner/planner_format.h"

#include <QLocale>

#include <cmath>

namespace moe::ui {

QString formatStepTime(double ms) {
  if (!std::isfinite(ms)) return QStringLiteral("—");
  if (std::fabs(ms) >= 1000) return QString::number(ms / 1000, 'g', 3) + QStringLiteral(" s");
  return QString::number(ms, 'g', 3) + QStringLiteral(" ms");
}

QString formatTokensPerSecond(double tokens_per_s) {
  if (!std::isfinite(tokens_per_s)) return QStringLiteral("—");
  static const char* const kPrefixes[] = {"", " k", " M", " G", " T"};
  double v = tokens_per_s;
  int prefix = 0;
  // Rounded to three digits first, so that 999.96 k reads "1 M".
  while (prefix < 4 && std::fabs(QString::number(v, 'g', 3).toDouble()) >= 1000) {
    v /= 1000;
    ++prefix;
  }
  return QString::number(v, 'g', 3) + QLatin1String(kPrefixes[prefix]) +
         QStringLiteral(" tokens/s");
}

QString formatMemory(double bytes) {
  if (!std::isfinite(bytes)) return QStringLiteral("—");
  return QLocale::c().formattedDataSize(static_cast<qint64>(std::llround(bytes)), 2,
                                        QLocale::DataSizeIecFormat);
}

}  // namespace moe::ui

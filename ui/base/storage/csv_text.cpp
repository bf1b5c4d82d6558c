// CSV fields (csv_text.h).
#include "base/storage/csv_text.h"

#include <QLocale>

#include <cmath>

namespace moe::ui {

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double v) {
  if (std::isnan(v)) return QString();
  return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

}  // namespace moe::ui

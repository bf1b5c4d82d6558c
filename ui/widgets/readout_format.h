#pragma once
// Compact number texts for plot read-outs: values as %.4g, steps as integers, wall time as
// "12.3 s", "2:05" or "1:02:03". Non-finite values read "–".
#include <QString>

namespace moe::ui {

QString formatReadoutValue(double value);
QString formatReadoutStep(double step);
QString formatReadoutWallTime(double seconds);

}  // namespace moe::ui

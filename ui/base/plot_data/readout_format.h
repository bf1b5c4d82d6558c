#pragma once
// Compact number texts for plot read-outs: values as %.4g, steps as integers, wall time as
// "12.3 s", "2:05" or "1:02:03". Non-finite values read "–".
#include <QString>

namespace moe::ui {

QString formatReadoutValue(double value);
QString formatReadoutStep(double step);
QString formatReadoutWallTime(double seconds);

// "4.2 s", "42 s", "3 min 05 s", "2 h 04 min" (an em dash when unknown): the one duration format
// of the app's prose, reports and estimates (the Runs table's column and the dashboard's clocks
// are compact on purpose).
QString durationText(double seconds);

}  // namespace moe::ui

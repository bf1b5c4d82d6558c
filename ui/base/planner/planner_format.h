// How the planner's figures read in the app: step times ("12.3 ms", "1.25 s"), throughput
// ("1.23 M tokens/s") and memory ("12.3 GiB"), three significant digits.
#pragma once

#include <QString>

namespace moe::ui {

QString formatStepTime(double ms);
QString formatTokensPerSecond(double tokens_per_s);
QString formatMemory(double bytes);

}  // namespace moe::ui

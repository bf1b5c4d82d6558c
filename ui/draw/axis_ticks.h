// Where an axis' ticks go and how their labels read.
#pragma once

#include <QString>

#include <vector>

namespace moe::ui {

// Ticks at a round step (1, 2, 2.5 or 5 times a power of ten; at least 1 when `integers`) that
// puts about `target` of them inside [lower, upper]; every tick lies in the range.
std::vector<double> niceTicks(double lower, double upper, int target, bool integers = false);

// A tick's label: up to 6 significant digits, no trailing zeros, "0" for a value that is zero
// within a millionth of the step (sums of steps are not exact).
QString tickLabel(double value, double step);

}  // namespace moe::ui

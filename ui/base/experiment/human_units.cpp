#include "base/experiment/human_units.h"

#include <cmath>
#include <cstdio>

namespace moe::ui {
namespace {

// value / base^i with the largest i that keeps it >= 1, printed with 3 significant digits and no
// trailing zeros ("1.5", "12.3", "512").
std::string scaled(double value, double base, const char* const* units, int unit_count,
                   const char* separator) {
  if (!std::isfinite(value)) return "—";
  const bool negative = value < 0;
  double v = std::fabs(value);
  int unit = 0;
  // Round first, so 999.96 k becomes "1 M" rather than "1e+03 k".
  auto rounded = [](double x) {
    const int digits = x >= 100 ? 0 : x >= 10 ? 1 : 2;
    const double scale = std::pow(10.0, digits);
    return std::round(x * scale) / scale;
  };
  while (unit + 1 < unit_count && rounded(v) >= base) {
    v /= base;
    ++unit;
  }
  v = rounded(v);
  char number[32];
  std::snprintf(number, sizeof number, "%.*f", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
  std::string text = number;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  std::string unit_text = units[unit];
  std::string out = (negative ? "-" : "") + text;
  if (!unit_text.empty()) out += separator + unit_text;
  return out;
}

}  // namespace

std::string formatCount(double value) {
  static const char* const units[] = {"", "k", "M", "G", "T", "P"};
  return scaled(value, 1000.0, units, 6, " ");
}

std::string formatFlops(double flops) {
  static const char* const units[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"};
  return scaled(flops, 1000.0, units, 7, " ");
}

std::string formatBytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  return scaled(bytes, 1024.0, units, 6, " ");
}

}  // namespace moe::ui

// Compact human-readable numbers for the estimates panel: "1.23 M", "3.4 GFLOP", "512 MiB".
// Three significant digits; plain C++ so the formats are easy to test.
#pragma once

#include <string>

namespace moe::ui {

// Decimal SI prefixes (k, M, G, T, P): "950", "12.3 k", "1.2 M".
std::string formatCount(double value);

// FLOPs with decimal prefixes: "950 FLOP", "3.4 GFLOP".
std::string formatFlops(double flops);

// Binary prefixes: "512 B", "1.5 KiB", "512 MiB", "2.25 GiB".
std::string formatBytes(double bytes);

}  // namespace moe::ui

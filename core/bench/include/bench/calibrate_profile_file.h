#pragma once
// The calibrated profile's file and summary: figures rounded to four significant digits, comments
// saying how they were measured, written under a temporary name and renamed, and the short table
// on stdout.
#include <ostream>
#include <string>
#include <vector>

#include "plan/hardware_profile.h"

namespace moe::bench {

// The name of a profile's inter_node when it was not measured (one node: a copy of the
// intra-node figures of the most ranks); the file's comment says which it is.
inline constexpr const char* kUnmeasuredInterNode =
    "(not measured: one node; copy of the intra-node figures)";

std::string utc_date();  // "2026-12-01 03:34 UTC"
// The best measured rate in `dtype` (0: none measured).
double best_rate(const std::vector<plan::GemmRate>& rates, const std::string& dtype);
// Rounds the figures, writes `path` (exit-2 InputError when it cannot) and prints the summary.
void finish_profile_file(plan::HardwareProfile& profile, const std::string& path, double seconds,
                         bool quick, std::ostream& summary);

}  // namespace moe::bench

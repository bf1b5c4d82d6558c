#include "bench/calibrate_profile_file.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "train/input_error.h"
#include "train/output_file.h"

namespace moe::bench {
namespace {

std::string figure(double value, const char* unit, double scale = 1e9, const char* prefix = "G") {
  std::ostringstream out;
  out << std::fixed << std::setprecision(value / scale >= 100 ? 0 : 2) << value / scale << " "
      << prefix << unit;
  return out.str();
}

// Four significant digits: the measurements are not steadier than that.
double rounded(double x) {
  if (!std::isfinite(x)) return x;
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return std::strtod(text, nullptr);  // the double nearest the decimal: written as such
}

void round_figures(plan::HardwareProfile& p) {
  auto& d = p.device;
  for (double* x : {&d.peak_flops_float32, &d.peak_flops_bfloat16, &d.peak_flops_float64,
                    &d.memory_bandwidth, &d.runtime_bytes, &d.op_overhead_s})
    *x = rounded(*x);
  for (auto& r : d.gemm_rates) {
    r.flops_per_s = rounded(r.flops_per_s);
    r.backward_flops_per_s = rounded(r.backward_flops_per_s);
  }
  auto round_link = [](plan::LinkProfile& l) {
    for (double* x : {&l.all_to_all_latency_s, &l.all_to_all_bandwidth, &l.all_reduce_latency_s,
                      &l.all_reduce_bandwidth})
      *x = rounded(*x);
  };
  for (auto& l : p.intra_node) round_link(l);
  round_link(p.inter_node);
}

void write_profile(const plan::HardwareProfile& profile, const std::string& path, double seconds,
                   bool quick) {
  std::ostringstream text;
  text << "// Measured by `moe-train bench --calibrate" << (quick ? " --quick" : "") << "` on "
       << utc_date() << " in " << static_cast<int>(seconds + 0.5) << " s.\n"
       << "// A measured profile has no datasheet peak: each peak_flops_* is the best GEMM rate\n"
       << "// measured here in that dtype, and gemm_efficiency is 1 because gemm_rates are\n"
       << "// measured rates. "
       << (profile.inter_node.name == kUnmeasuredInterNode
               ? "inter_node is not measured (one node): a copy of the intra-node\n"
                 "// figures of the most ranks.\n"
               : "inter_node was measured across nodes (bench --calibrate-link, --inter-node).\n")
       << plan::profile_json(profile);
  train::write_file_whole(path, text.str(), "--json");
}

void print_summary(std::ostream& out, const plan::HardwareProfile& p, const std::string& path) {
  const auto& d = p.device;
  out << p.name << ": profile written to " << path << "\n";
  out << "  device            " << d.name << ", " << d.devices_per_node << " per node, "
      << figure(d.memory_bytes, "B") << "\n";
  for (const char* dtype : {"float32", "bfloat16", "float64"}) {
    const double best = best_rate(d.gemm_rates, dtype);
    if (best > 0)
      out << "  best GEMM " << std::left << std::setw(9) << dtype << std::right
          << figure(best, "FLOP/s") << "\n";
  }
  out << "  GEMM rates        " << d.gemm_rates.size() << " shapes\n"
      << "  memory bandwidth  " << figure(d.memory_bandwidth, "B/s") << "\n"
      << "  op overhead       " << figure(d.op_overhead_s, "s", 1e-6, "u") << "\n"
      << "  runtime           " << figure(d.runtime_bytes, "B", 1e6, "M") << "\n";
  for (const auto& l : p.intra_node) {
    out << "  " << l.name << ": all_to_all " << figure(l.all_to_all_latency_s, "s", 1e-6, "u")
        << " + " << figure(l.all_to_all_bandwidth, "B/s") << ", all_reduce "
        << figure(l.all_reduce_latency_s, "s", 1e-6, "u") << " + "
        << figure(l.all_reduce_bandwidth, "B/s") << "\n";
  }
}

}  // namespace

std::string utc_date() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

double best_rate(const std::vector<plan::GemmRate>& rates, const std::string& dtype) {
  double best = 0;
  for (const auto& r : rates) {
    if (r.dtype == dtype) best = std::max(best, r.flops_per_s);
  }
  return best;
}

void finish_profile_file(plan::HardwareProfile& profile, const std::string& path, double seconds,
                         bool quick, std::ostream& summary) {
  round_figures(profile);
  write_profile(profile, path, seconds, quick);
  print_summary(summary, profile, path);
}

}  // namespace moe::bench

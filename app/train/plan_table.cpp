#include "plan_table.h"

#include <cstdio>

#include "protocol/parallel_layout.h"

namespace moe::train {
namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  return fixed(b, b < 10 ? 2 : 1) + " " + units[u];
}

std::string padded(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

bool same(const plan::Layout& a, const plan::Layout& b) {
  return a.nodes == b.nodes && a.nproc_per_node == b.nproc_per_node && a.r == b.r;
}

void printPhases(std::ostream& out, const plan::LayoutPrediction& lp) {
  out << "    r=" << lp.layout.r << " phases (ms):";
  for (const auto& [name, ms] : lp.prediction.phases_ms) out << " " << name << " " << fixed(ms, 2);
  out << "\n";
}

}  // namespace

void print_plan(std::ostream& out, const protocol::RunConfig& config,
                const plan::HardwareProfile& profile,
                const std::vector<plan::LayoutPrediction>& layouts,
                const plan::LayoutPrediction& best, bool with_phases) {
  out << "profile: " << profile.name << " (" << profile.device.name << ", "
      << bytes(profile.device.memory_bytes) << "; " << profile.device.devices_per_node
      << " per node; network " << profile.inter_node.name << ")\n";
  out << "config: " << config.name << ", dtype " << protocol::enum_name(config.train.dtype)
      << "\n\n";
  const std::vector<std::pair<std::string, size_t>> columns = {
      {"ranks", 6},        {"layout", 8},      {"r", 3},           {"step ms", 11},
      {"compute", 10},     {"all-to-all", 11}, {"all-reduce", 11}, {"tokens/s", 12},
      {"memory/rank", 13}, {"fits", 5}};
  for (const auto& [name, width] : columns) out << padded(name, width);
  out << "\n";
  for (const auto& lp : layouts) {
    const auto& p = lp.prediction;
    const std::string layout =
        std::to_string(lp.layout.nodes) + "x" + std::to_string(lp.layout.nproc_per_node);
    const std::string cells[] = {std::to_string(lp.layout.world()),
                                 layout,
                                 std::to_string(lp.layout.r),
                                 fixed(p.step_ms, 2),
                                 fixed(p.compute_ms, 2),
                                 fixed(p.a2a_ms, 2),
                                 fixed(p.allreduce_ms, 2),
                                 fixed(p.tokens_per_s, 0),
                                 bytes(p.memory_bytes),
                                 p.fits ? "yes" : "NO"};
    for (size_t i = 0; i < columns.size(); ++i) out << padded(cells[i], columns[i].second);
    out << (same(lp.layout, best.layout) ? "  <- best" : "") << "\n";
    if (with_phases) printPhases(out, lp);
  }
  out << "\nbest: " << best.layout.world() << " ranks (" << best.layout.nodes << " x "
      << best.layout.nproc_per_node << "), r=" << best.layout.r << ": "
      << fixed(best.prediction.step_ms, 2) << " ms per step, "
      << fixed(best.prediction.tokens_per_s, 0) << " tokens/s, "
      << bytes(best.prediction.memory_bytes) << " per rank"
      << (best.prediction.fits ? "" : " (does not fit)") << "\n";
}

void print_decode(std::ostream& out, const std::vector<plan::DecodePrediction>& predictions,
                  const std::vector<std::string>& profiles) {
  const std::vector<std::pair<std::string, size_t>> columns = {
      {"profile", 16}, {"batch", 7},     {"tokens/s", 12},   {"per sequence", 14}, {"step ms", 10},
      {"bound", 9},    {"KV cache", 12}, {"per device", 12}, {"fits", 5}};
  for (const auto& [name, width] : columns) out << padded(name, width);
  out << "\n";
  for (size_t i = 0; i < predictions.size(); ++i) {
    const auto& p = predictions[i];
    const std::string cells[] = {profiles[i],
                                 std::to_string(p.query.batch),
                                 fixed(p.tokens_per_s, 0),
                                 fixed(p.tokens_per_s / static_cast<double>(p.query.batch), 1),
                                 fixed(p.step_s * 1e3, 2),
                                 p.memory_bound() ? "memory" : "compute",
                                 bytes(p.cache_bytes),
                                 bytes(p.device_bytes),
                                 p.fits ? "yes" : "NO"};
    for (size_t c = 0; c < columns.size(); ++c) out << padded(cells[c], columns[c].second);
    out << "\n";
  }
  if (predictions.empty()) return;
  const auto& q = predictions.front().query;
  out << "context " << q.context << " positions a sequence, " << q.devices
      << " device(s) sharing weights and cache evenly (communication not counted)\n";
}

std::string layout_refusal(const protocol::RunConfig& config, int64_t nodes,
                           int64_t nproc_per_node) {
  const int64_t world = nodes * nproc_per_node;
  protocol::RunConfig placed = config;
  placed.parallel.nodes = nodes;
  placed.parallel.nproc = nproc_per_node;
  placed.parallel.adaptive_r = protocol::kAdaptiveRAuto;
  std::string why;
  for (const auto& p : protocol::layout_problems(placed, world)) {
    why += "\n  " + p.pointer + ": " + p.message;
  }
  return "no layout of " + std::to_string(nodes) + " x " + std::to_string(nproc_per_node) +
         " ranks suits the config" + (why.empty() ? std::string(".") : ":" + why);
}

}  // namespace moe::train

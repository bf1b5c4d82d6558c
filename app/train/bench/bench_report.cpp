#include "bench/bench_report.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace moe::train {

namespace {

std::string swept_label(const nlohmann::json& swept) {
  if (swept.empty()) return "default";
  std::string label;
  for (auto it = swept.begin(); it != swept.end(); ++it) {
    auto value = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    label += (label.empty() ? "" : " ") + it.key() + "=" + value;
  }
  return label;
}

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

double phase(const LayerBenchResult& r, const char* name) {
  auto it = r.phases_ms.find(name);
  return it == r.phases_ms.end() ? 0.0 : it->second;
}

}  // namespace

void print_bench_table(std::ostream& out, const std::vector<LayerBenchResult>& results) {
  int width = 7;
  for (const auto& r : results) width = std::max<int>(width, swept_label(r.swept).size());
  char line[1024];
  std::snprintf(line, sizeof line,
                "%-*s %7s %6s %11s %11s %7s %5s %6s | %6s %6s %7s %6s %7s %6s | %11s %7s\n", width,
                "config", "tokens", "C", "fwd tok/s", "train tok/s", "TFLOP/s", "eff", "route%",
                "gate", "disp", "experts", "comb", "bwd", "(ms)", "naive tok/s", "speedup");
  out << line;
  for (const auto& r : results) {
    const std::string naive =
        r.naive_train_tokens_per_s > 0 ? format("%.0f", r.naive_train_tokens_per_s) : "-";
    const std::string speedup =
        r.naive_train_ms > 0 ? format("%.1fx", r.naive_train_ms / r.train_ms) : "-";
    std::snprintf(line, sizeof line,
                  "%-*s %7lld %6lld %11.0f %11.0f %7.3f %5.2f %5.1f%% | %6.1f %6.1f %7.1f %6.1f "
                  "%7.1f %6s | %11s %7s\n",
                  width, swept_label(r.swept).c_str(), static_cast<long long>(r.tokens),
                  static_cast<long long>(r.capacity), r.forward_tokens_per_s, r.train_tokens_per_s,
                  r.train_tflops, r.efficiency, 100.0 * r.routing_share, phase(r, "gate"),
                  phase(r, "dispatch"), phase(r, "experts"), phase(r, "combine"),
                  phase(r, "backward"), "", naive.c_str(), speedup.c_str());
    out << line;
  }
  if (!results.empty()) {
    out << "threads (fastest for the expert GEMMs, used for the layer too): "
        << results.front().ceiling.threads.describe() << "\n";
  }
}

nlohmann::json bench_json(const LayerBenchResult& r) {
  return {{"config", r.swept},
          {"tokens", r.tokens},
          {"capacity", r.capacity},
          {"forward_tokens_per_s", r.forward_tokens_per_s},
          {"train_tokens_per_s", r.train_tokens_per_s},
          {"train_tflops", r.train_tflops},
          {"efficiency", r.efficiency},
          {"routing_share", r.routing_share},
          {"phases_ms", r.phases_ms},
          {"ceiling_train_ms", r.ceiling.train_ms},
          {"threads", r.ceiling.threads.describe()},
          {"naive_train_tokens_per_s", r.naive_train_tokens_per_s},
          {"naive_max_abs_diff", r.naive_max_abs_diff}};
}

}  // namespace moe::train

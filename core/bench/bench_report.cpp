#include "bench/bench_report.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace moe::bench {

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
                "%-*s %7s %6s %11s %11s %7s %5s %6s | %6s %6s %7s %6s %7s | %11s %7s %8s | %6s "
                "%7s | %s\n",
                width, "config", "tokens", "C", "fwd tok/s", "train tok/s", "TFLOP/s", "eff",
                "route%", "gate", "disp", "experts", "comb", "bwd", "naive tok/s", "speedup",
                "max diff", "rows%", "ragged", "threads (intra-op, BLAS, kernels)");
  out << line;
  for (const auto& r : results) {
    const bool naive = r.naive_train_ms > 0;
    const std::string naive_rate = naive ? format("%.0f", r.naive_train_tokens_per_s) : "-";
    const std::string speedup = naive ? format("%.1fx", r.naive_speedup) : "-";
    const std::string diff = r.naive_max_abs_diff >= 0 ? format("%.1e", r.naive_max_abs_diff) : "-";
    const std::string rows =
        r.buffer_rows > 0 ? format("%.0f%%", 100.0 * r.routed_rows / r.buffer_rows) : "-";
    const std::string ragged = r.padded_train_ms > 0 ? format("%.2fx", r.ragged_speedup) : "-";
    const std::string threads = std::to_string(r.threads.intra_op) + ", " +
                                (r.threads.blas > 0 ? std::to_string(r.threads.blas) : "n/a") +
                                ", " + std::to_string(r.kernel_threads);
    std::snprintf(line, sizeof line,
                  "%-*s %7lld %6lld %11.0f %11.0f %7.3f %5.2f %5.1f%% | %6.1f %6.1f %7.1f %6.1f "
                  "%7.1f | %11s %7s %8s | %6s %7s | %s\n",
                  width, swept_label(r.swept).c_str(), static_cast<long long>(r.tokens),
                  static_cast<long long>(r.capacity), r.forward_tokens_per_s, r.train_tokens_per_s,
                  r.train_tflops, r.efficiency, 100.0 * r.routing_share, phase(r, "gate"),
                  phase(r, "dispatch"), phase(r, "experts"), phase(r, "combine"),
                  phase(r, "backward"), naive_rate.c_str(), speedup.c_str(), diff.c_str(),
                  rows.c_str(), ragged.c_str(), threads.c_str());
    out << line;
  }
  if (results.empty()) return;
  out << "Each config is timed in rounds (";
  for (size_t i = 0; i < results.size(); ++i) out << (i ? ", " : "") << results[i].rounds;
  out << "); in each round the expert-GEMM ceiling, the layer"
      << (results.front().naive_train_ms > 0 ? " and the naive baseline" : "")
      << " run once each, in that order.\n"
      << "  eff     = ceiling time / layer time (the expert GEMMs alone, "
      << results.front().ceiling_gemms
      << " for these experts, vs the layer's forward + backward), median over rounds\n"
         "  route%  = (gate + dispatch + combine, forward and backward) / layer time, median over "
         "rounds\n"
         "  speedup = naive GShard layer time / layer time, median over rounds; max diff = "
         "largest |ours - naive| of the outputs\n"
         "  gate .. bwd: ms per layer step (median over rounds); threads: chosen as the fastest "
         "for the expert GEMMs, the layer runs under the same\n"
         "  rows%   = routed rows / rows of the padded [E, C] buffer; ragged = the same layer on "
         "the padded buffer / the layer over the routed rows alone (dropless on the CPU), median "
         "over rounds\n";
}

nlohmann::json bench_json(const LayerBenchResult& r) {
  return {{"config", r.swept},
          {"tokens", r.tokens},
          {"capacity", r.capacity},
          {"rounds", r.rounds},
          {"forward_tokens_per_s", r.forward_tokens_per_s},
          {"train_tokens_per_s", r.train_tokens_per_s},
          {"train_ms", r.train_ms},
          {"train_tflops", r.train_tflops},
          {"ceiling_train_ms", r.ceiling_train_ms},
          {"ceiling_gemms", r.ceiling_gemms},
          {"efficiency", r.efficiency},
          {"routing_share", r.routing_share},
          {"phases_ms", r.phases_ms},
          {"threads", r.threads.describe()},
          {"intra_op_threads", r.threads.intra_op},
          {"blas_threads", r.threads.blas},
          {"kernel_threads", r.kernel_threads},
          {"naive_train_ms", r.naive_train_ms},
          {"naive_train_tokens_per_s", r.naive_train_tokens_per_s},
          {"naive_speedup", r.naive_speedup},
          {"naive_capacity", r.naive_capacity},
          {"naive_max_abs_diff", r.naive_max_abs_diff},
          {"routed_rows", r.routed_rows},
          {"buffer_rows", r.buffer_rows},
          {"padded_train_ms", r.padded_train_ms},
          {"ragged_speedup", r.ragged_speedup}};
}

}  // namespace moe::bench

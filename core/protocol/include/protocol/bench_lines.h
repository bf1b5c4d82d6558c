// The JSON Lines of `moe-train bench --jsonl` (docs/PROTOCOL.md, "moe-train bench"), for the
// engine that writes them and the app's Profiler that reads them as they come: one bench_start,
// one bench_config per finished config (the benchmark's figures, see bench_report), one
// bench_end. The reader is tolerant: a line it cannot use is reported, never thrown.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace moe::protocol {

// What a sweep is about to do: its number of configs and how it times them.
struct BenchStart {
  int64_t configs = 0;
  std::string mode;  // "grid" or "paired"
  int64_t iters = 0;
  double min_time = 0;
  bool naive = true;
};

std::string bench_start_line(const BenchStart& start);
// `figures`: one config's result object (bench_report's bench_json), written with the line's
// type, the config's 0-based index of `of` and its wall time.
std::string bench_config_line(nlohmann::json figures, int64_t index, int64_t of, double seconds);
std::string bench_end_line(int64_t configs, double seconds);

struct BenchLine {
  enum class Kind { Start, Config, End, Bad };
  Kind kind = Kind::Bad;
  int64_t configs = 0;    // Start, End: the sweep's configs; Config: `of`
  int64_t index = 0;      // Config
  nlohmann::json object;  // the line's whole object (Start, Config, End)
  std::string error;      // Bad: what is wrong with the line
};

// One stdout line (without its newline). A bench_config must carry a `config` object and a
// numeric `train_tokens_per_s`; other fields are the reader's to take or leave.
BenchLine parse_bench_line(std::string_view line);

}  // namespace moe::protocol

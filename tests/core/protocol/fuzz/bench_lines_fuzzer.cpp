// libFuzzer: arbitrary bytes as a line of bench --jsonl. The reader never throws, says why it
// refuses a line, and a config line it accepts writes back to one it reads as the same config.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/bench_lines.h"

using namespace moe::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const BenchLine read = parse_bench_line(line);
  if (read.kind == BenchLine::Kind::Bad && read.error.empty()) __builtin_trap();
  if (read.kind == BenchLine::Kind::Config) {
    const BenchLine back =
        parse_bench_line(bench_config_line(read.object, read.index, read.configs, 0));
    if (back.kind != BenchLine::Kind::Config ||
        back.object.at("config") != read.object.at("config"))
      __builtin_trap();
  }
  return 0;
}

// libFuzzer: arbitrary bytes into TelemetryReader, split into chunks at positions the input
// chooses, plus the same bytes as one line. The reader promises never to throw; every event it
// yields must survive a write/read round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "protocol/telemetry_reader.h"
#include "protocol/telemetry_writer.h"

using namespace moe::protocol;

namespace {

void check_round_trip(const TelemetryEvent& e) {
  std::string line = event_line(to_json(e));
  LineKind kind;
  std::optional<TelemetryEvent> back = parse_event_line(line, &kind);
  if (!back || kind != LineKind::kEvent) __builtin_trap();
  if (event_type(*back) != event_type(e)) __builtin_trap();
  // The multi-process events keep their entries: the dashboard indexes ranks and r by them.
  if (const auto* ranks = std::get_if<RanksEvent>(&e)) {
    if (std::get<RanksEvent>(*back).ranks.size() != ranks->ranks.size()) __builtin_trap();
  }
  if (const auto* adaptive = std::get_if<AdaptiveREvent>(&e)) {
    const auto& tried = std::get<AdaptiveREvent>(*back).tried;
    if (tried.size() != adaptive->tried.size()) __builtin_trap();
    for (const auto& [r, ms] : adaptive->tried) {
      if (tried.count(r) == 0) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The first byte picks a chunk size and a line limit, so both paths get exercised.
  size_t chunk = 1, limit = TelemetryReader::kDefaultMaxLineBytes;
  if (!bytes.empty()) {
    chunk = 1 + static_cast<unsigned char>(bytes[0]) % 64;
    if (bytes[0] & 0x80) limit = 16 + static_cast<unsigned char>(bytes[0]);
    bytes.remove_prefix(1);
  }
  TelemetryReader reader(limit);
  int64_t yielded = 0;
  for (size_t pos = 0; pos < bytes.size(); pos += chunk) {
    for (const TelemetryEvent& e : reader.feed(bytes.substr(pos, chunk))) {
      check_round_trip(e);
      ++yielded;
    }
    if (reader.pending_bytes() > limit) __builtin_trap();
  }
  for (const TelemetryEvent& e : reader.finish()) {
    check_round_trip(e);
    ++yielded;
  }
  const TelemetryReaderStats& s = reader.stats();
  if (s.events != yielded || s.lines != s.events + s.unknown + s.malformed) __builtin_trap();

  (void)parse_event_line(bytes);
  return 0;
}

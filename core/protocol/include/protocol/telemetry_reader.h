// Tolerant reader of telemetry JSON Lines (docs/PROTOCOL.md, "Telemetry"). The GUI feeds it
// whatever bytes a process or a file gives; it never throws on any input.
//
// Rules: unknown "type"s, and lines of a newer "v", are skipped and counted as unknown; unknown
// keys are ignored; a line that is not a JSON object, lacks "v"/"type"/"t", or has a field of the
// wrong type is counted as malformed. null is read as NaN where a number is expected (writers emit
// null for NaN/inf). Every field of docs/PROTOCOL.md, "Telemetry", is required except
// eval.accuracy, run_end.error and the descriptive strings (run_start's device, host,
// engine_version, torch_version; ranks[].host; adaptive_r.reason: default ""). expert_load's
// counts, kept and importance must have the same length; a ranks event names each rank (>= 0)
// once; adaptive_r.tried's keys are integers written in decimal ("0", "12").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/telemetry_events.h"

namespace moe::protocol {

enum class LineKind { kEvent, kBlank, kUnknown, kMalformed };

// One line (without its newline; a trailing '\r' is fine). *kind says what it was; *error
// describes why a line was malformed. An event only for LineKind::kEvent.
std::optional<TelemetryEvent> parse_event_line(std::string_view line, LineKind* kind = nullptr,
                                               std::string* error = nullptr);

// The same for an already parsed JSON value. `json` may be moved from (run_start's config).
std::optional<TelemetryEvent> event_from_json(nlohmann::json& json, LineKind* kind = nullptr,
                                              std::string* error = nullptr);

struct TelemetryReaderStats {
  int64_t lines = 0;      // non-blank lines seen (complete, or cut by finish())
  int64_t events = 0;     // lines that gave an event
  int64_t unknown = 0;    // skipped: unknown type or newer version
  int64_t malformed = 0;  // not an event (oversized lines included)
  int64_t oversized = 0;  // longer than max_line_bytes, dropped unread
};

// Splits a byte stream into lines and lines into events. Chunks may cut lines anywhere; "\n" and
// "\r\n" both end a line.
class TelemetryReader {
 public:
  // A line longer than this is dropped (counted as malformed and oversized) without buffering it,
  // so a runaway writer cannot exhaust the GUI's memory. Real lines are a few KB.
  static constexpr size_t kDefaultMaxLineBytes = size_t{16} << 20;

  explicit TelemetryReader(size_t max_line_bytes = kDefaultMaxLineBytes);

  // The events completed by `bytes`, in order.
  std::vector<TelemetryEvent> feed(std::string_view bytes);
  // The same, handing each event to `sink` as it is parsed.
  void feed(std::string_view bytes, const std::function<void(TelemetryEvent&&)>& sink);

  // End of stream: parses a last line that had no newline.
  std::vector<TelemetryEvent> finish();

  const TelemetryReaderStats& stats() const { return stats_; }
  // Why the most recent malformed line was malformed ("" if none yet).
  const std::string& last_error() const { return last_error_; }
  // Bytes of an incomplete line held back until its newline arrives.
  size_t pending_bytes() const { return pending_.size(); }

 private:
  void take_line(std::string_view line, const std::function<void(TelemetryEvent&&)>& sink);

  size_t max_line_bytes_;
  std::string pending_;
  bool discarding_ = false;  // inside an oversized line: drop bytes until the next newline
  TelemetryReaderStats stats_;
  std::string last_error_;
};

}  // namespace moe::protocol

// Writes telemetry events as JSON Lines to stdout and to <run-dir>/metrics.jsonl (SPEC section 4).
#pragma once

#include <chrono>
#include <fstream>
#include <mutex>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/telemetry_events.h"

namespace moe::protocol {

// One event as one line without the newline: "v", "type" and "t" first (for people tailing the
// file), then the other keys. Compact, never throws on bad UTF-8 (replaced with U+FFFD), NaN and
// inf written as null.
std::string event_line(const nlohmann::json& event);

// Thread-safe: the engine's threads can emit concurrently; each line is written whole, to both
// sinks, and flushed right away so that a crash loses at most the line being written.
class TelemetryWriter {
 public:
  using Clock = std::chrono::steady_clock;

  // `out` (usually &std::cout) may be null; `metrics_path` "" writes no file. The file is opened
  // for appending (a resumed run continues it); std::runtime_error if it cannot be opened.
  // `start` is the run's t = 0.
  TelemetryWriter(std::ostream* out, const std::string& metrics_path,
                  Clock::time_point start = Clock::now());

  TelemetryWriter(const TelemetryWriter&) = delete;
  TelemetryWriter& operator=(const TelemetryWriter&) = delete;

  // Writes `event` as it is (its "t" included).
  void write(const nlohmann::json& event);

  // Writes a typed event with "t" set to now (the event's own t is ignored).
  template <class Event>
  void write_event(const Event& event) {
    nlohmann::json j = to_json(event);
    j["t"] = seconds_since_start();
    write(j);
  }

  double seconds_since_start() const;

  // False once a write to the file failed (disk full...). Telemetry never throws into training;
  // the engine can check this and warn.
  bool file_ok() const;

 private:
  std::ostream* out_;
  std::ofstream file_;
  bool has_file_ = false;
  bool file_ok_ = true;
  Clock::time_point start_;
  mutable std::mutex mutex_;
};

}  // namespace moe::protocol

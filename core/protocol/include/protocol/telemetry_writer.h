// Writes telemetry events as JSON Lines to stdout and to <run-dir>/metrics.jsonl (docs/PROTOCOL.md,
// "Telemetry").
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/append_file.h"
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

  // Called with each event written, in order, under the writer's lock (so it must not write
  // telemetry itself, nor throw): the engine derives TensorBoard scalars and trace counters from
  // the very lines of metrics.jsonl. An empty function removes it.
  void set_listener(std::function<void(const nlohmann::json&)> listener);

  // False once the file lost a line (disk full, removed...): from then on lines go to `out` only.
  // Writing never throws into training; the engine checks file_error() and ends the run.
  bool file_ok() const;
  // "" while the file has every line; else "<path>: <what failed>: <cause>". Also notices a file
  // removed or replaced since it was opened.
  std::string file_error();
  // fsync, then close: errors that only show there (quotas, NFS) become file_error(). After
  // close() lines go to `out` only.
  void sync_file();
  void close_file();

 private:
  std::ostream* out_;
  AppendFile file_;
  Clock::time_point start_;
  std::function<void(const nlohmann::json&)> listener_;
  mutable std::mutex mutex_;
};

}  // namespace moe::protocol

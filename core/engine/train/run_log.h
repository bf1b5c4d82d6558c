#pragma once
// What the run says to people: log events in the telemetry, the same lines on stderr and in
// <run-dir>/stderr.log, and a one-line progress display on stderr when it is a terminal (never on
// stdout, which is the telemetry stream).
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "protocol/append_file.h"
#include "protocol/telemetry_writer.h"

namespace moe::train {

class RunLog {
 public:
  // `telemetry` may be null (before the run directory exists); `stderr_log` "" writes no file.
  // std::runtime_error naming the file when it cannot be opened.
  RunLog(protocol::TelemetryWriter* telemetry, const std::string& stderr_log);

  void info(const std::string& msg) { log("info", msg); }
  void warn(const std::string& msg) { log("warn", msg); }
  void error(const std::string& msg) { log("error", msg); }

  // Replaces the progress line (terminals only; a no-op when stderr is a pipe or file). At most
  // ten updates a second reach the terminal unless `force`.
  void progress(const std::string& line, bool force = false);
  // Whether progress() shows anything (stderr is a terminal).
  bool shows_progress() const { return tty_; }
  // Leaves the last progress line on screen and moves to the next line (at the end of a run).
  void end_progress();

  // "" while stderr.log has every line; else "<path>: <what failed>: <cause>" (also when the file
  // was removed or replaced). Lines still reach stderr after a failure.
  std::string file_error();
  // fsync and close stderr.log; their errors become file_error().
  void sync_file();
  void close_file();

 private:
  void log(const char* level, const std::string& msg);
  void clear_progress_locked();

  protocol::TelemetryWriter* telemetry_;
  protocol::AppendFile file_;
  bool tty_;
  bool progress_shown_ = false;
  std::chrono::steady_clock::time_point last_progress_{};
  std::mutex mutex_;
};

// "1:02:03" / "4:05" for an ETA.
std::string format_duration(double seconds);

}  // namespace moe::train

#include "train/run_log.h"

#include <unistd.h>

#include <cmath>
#include <iostream>

namespace moe::train {

RunLog::RunLog(protocol::TelemetryWriter* telemetry, const std::string& stderr_log)
    : telemetry_(telemetry), tty_(::isatty(STDERR_FILENO) == 1) {
  if (!stderr_log.empty()) file_ = protocol::AppendFile(stderr_log);
}

void RunLog::log(const char* level, const std::string& msg) {
  if (telemetry_) telemetry_->write_event(protocol::LogEvent{0, level, msg});
  std::lock_guard<std::mutex> lock(mutex_);
  clear_progress_locked();
  const std::string prefix = std::string(level) == "info" ? "" : std::string(level) + ": ";
  std::cerr << "moe-train: " << prefix << msg << std::endl;
  if (file_.is_open()) file_.append(prefix + msg + "\n");
}

void RunLog::progress(const std::string& line, bool force) {
  if (!tty_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (!force && progress_shown_ && now - last_progress_ < std::chrono::milliseconds(100)) return;
  last_progress_ = now;
  std::cerr << "\r" << line << "\x1b[K" << std::flush;
  progress_shown_ = true;
}

void RunLog::end_progress() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!progress_shown_) return;
  std::cerr << "\n";
  progress_shown_ = false;
}

std::string RunLog::file_error() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.check_in_place();
  return file_.error();
}

void RunLog::sync_file() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.sync();
}

void RunLog::close_file() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.close();
}

void RunLog::clear_progress_locked() {
  if (!progress_shown_) return;
  std::cerr << "\r\x1b[K";
  progress_shown_ = false;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char out[32];
  if (s >= 3600) {
    std::snprintf(out, sizeof out, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(out, sizeof out, "%ld:%02ld", s / 60, s % 60);
  }
  return out;
}

}  // namespace moe::train

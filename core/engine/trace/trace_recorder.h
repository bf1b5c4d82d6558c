#pragma once
// A timeline of what the engine did, written as trace.json in the Chrome trace event format
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU), which Perfetto
// and chrome://tracing open. Spans come from ScopedPhase (phase_timer.h) and TraceSpan on any
// thread while a recorder is active (telemetry.trace: true); counters from the telemetry events
// (telemetry_outputs.h). A run of several ranks merges one recorder per rank (run_trace.h).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace moe::trace {

class TraceRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // Past `max_events` spans are counted as dropped instead of kept (a long run would otherwise
  // grow without bound); the file notes how many.
  explicit TraceRecorder(size_t max_events = 2'000'000);

  // One complete ("X") event on the calling thread. Thread-safe; `name` must outlive the recorder
  // (a string literal).
  void span(const char* name, Clock::time_point start, Clock::time_point end);
  // Names the calling thread in the trace ("trainer", "data loader").
  void name_thread(const std::string& name);
  // The trace's process: its pid in the trace (the rank) and its name ("rank 0 (node-a)").
  // Default: the OS's pid, unnamed.
  void name_process(int pid, const std::string& name);
  // Sets `series` of counter `name` at `step`: one counter ("C") event per name and step, at the
  // time of its first series (Perfetto draws each series as a track "<name> <series>"). A value
  // that is not finite is left out.
  void counter(const std::string& name, int64_t step, const std::string& series, double value);

  // The whole trace as a Chrome trace JSON object: traceEvents (metadata, spans, counters, with
  // "ts" in microseconds since this recorder was made), displayTimeUnit, and otherData
  // (dropped_events, origin_unix_us: the wall-clock time of ts 0, to line up several ranks).
  nlohmann::json document() const;
  // Writes document() to `path` through a temporary file and a rename. std::runtime_error when it
  // cannot be written.
  void write(const std::string& path) const;

  size_t events() const;
  size_t dropped() const;

 private:
  struct Event {
    const char* name;
    int64_t start_us, duration_us;
    int tid;
  };
  struct Counter {
    std::string name;
    int64_t step, ts_us;
    std::vector<std::pair<std::string, double>> series;
  };
  Clock::time_point origin_;
  int64_t origin_unix_us_;
  size_t max_events_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
  std::vector<Counter> counters_;
  std::vector<std::pair<int, std::string>> thread_names_;
  int pid_;
  std::string process_name_;
  size_t dropped_ = 0;
};

// Writes a Chrome trace document to `path` through a temporary file and a rename.
// std::runtime_error when it cannot be written.
void write_trace_file(const std::string& path, const nlohmann::json& document);

namespace detail {
inline std::atomic<TraceRecorder*>& active_trace() {
  static std::atomic<TraceRecorder*> active{nullptr};
  return active;
}
}  // namespace detail

// Makes `trace` the process's recorder until destroyed (one at a time).
class ActiveTrace {
 public:
  explicit ActiveTrace(TraceRecorder* trace) { detail::active_trace().store(trace); }
  ~ActiveTrace() { detail::active_trace().store(nullptr); }
  ActiveTrace(const ActiveTrace&) = delete;
  ActiveTrace& operator=(const ActiveTrace&) = delete;
};

// A span in the active trace, if any (steps, evaluation, checkpoints, data loading).
class TraceSpan {
 public:
  explicit TraceSpan(const char* name) : trace_(detail::active_trace().load()), name_(name) {
    if (trace_) start_ = TraceRecorder::Clock::now();
  }
  ~TraceSpan() {
    if (trace_) trace_->span(name_, start_, TraceRecorder::Clock::now());
  }
  TraceSpan(const TraceSpan&) = delete;
  TraceSpan& operator=(const TraceSpan&) = delete;

 private:
  TraceRecorder* trace_;
  const char* name_;
  TraceRecorder::Clock::time_point start_;
};

}  // namespace moe::trace

#pragma once
// A timeline of what the engine did, written as trace.json in the Chrome trace event format
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU), which Perfetto
// and chrome://tracing open. Spans come from ScopedPhase (phase_timer.h) and TraceSpan on any
// thread while a recorder is active (telemetry.trace: true).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace moe {

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

  // Writes the whole trace to `path` through a temporary file and a rename. std::runtime_error
  // when it cannot be written.
  void write(const std::string& path) const;

  size_t events() const;
  size_t dropped() const;

 private:
  struct Event {
    const char* name;
    int64_t start_us, duration_us;
    int tid;
  };
  Clock::time_point origin_;
  size_t max_events_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
  std::vector<std::pair<int, std::string>> thread_names_;
  size_t dropped_ = 0;
};

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

}  // namespace moe

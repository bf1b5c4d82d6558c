#pragma once
// Wall-clock time per named phase (gate, dispatch, experts, ...), summed over a step.
// Code that does the work opens a ScopedPhase; whoever wants the figures (trainer, bench) makes
// a PhaseTimes active on its thread. Autograd runs CPU backward on the calling thread, so
// backward phases land in the same place. Phases also appear in the active trace, if any.
#include <chrono>
#include <map>
#include <string>

#include "trace/trace_recorder.h"

namespace moe::trace {

class PhaseTimes {
 public:
  void add(const std::string& phase, double ms) { ms_[phase] += ms; }
  void clear() { ms_.clear(); }
  const std::map<std::string, double>& ms() const { return ms_; }

 private:
  std::map<std::string, double> ms_;
};

namespace detail {
inline PhaseTimes*& active_phase_times() {
  thread_local PhaseTimes* active = nullptr;
  return active;
}
}  // namespace detail

// Makes `times` the place this thread's ScopedPhases record into, until destroyed.
class ActivePhaseTimes {
 public:
  explicit ActivePhaseTimes(PhaseTimes* times) : previous_(detail::active_phase_times()) {
    detail::active_phase_times() = times;
  }
  ~ActivePhaseTimes() { detail::active_phase_times() = previous_; }
  ActivePhaseTimes(const ActivePhaseTimes&) = delete;
  ActivePhaseTimes& operator=(const ActivePhaseTimes&) = delete;

 private:
  PhaseTimes* previous_;
};

// Adds the time from construction to destruction to `phase` of the active PhaseTimes, if any.
class ScopedPhase {
 public:
  explicit ScopedPhase(const char* phase)
      : times_(detail::active_phase_times()), trace_(detail::active_trace().load()), phase_(phase) {
    if (times_ || trace_) start_ = std::chrono::steady_clock::now();
  }
  ~ScopedPhase() {
    if (!times_ && !trace_) return;
    const auto end = std::chrono::steady_clock::now();
    if (trace_) trace_->span(phase_, start_, end);
    if (times_)
      times_->add(phase_, std::chrono::duration<double, std::milli>(end - start_).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimes* times_;
  TraceRecorder* trace_;
  const char* phase_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace moe::trace

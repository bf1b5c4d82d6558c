#pragma once
// Time per named phase (gate, dispatch, experts, ...), summed over a step.
// Code that does the work opens a ScopedPhase; whoever wants the figures (trainer, bench) makes
// a PhaseTimes active on its thread. Autograd runs CPU backward on the calling thread, so
// backward phases land in the same place. Phases also appear in the active trace, if any (as
// host time).
//
// On the CPU a phase is wall-clock time. On a CUDA device the host only queues the work, so a
// PhaseTimes made for that device times each phase with two events on the device's current
// stream instead: the device's time from the phase's first queued kernel to its last, read when
// ms() is asked (which waits for the phase's work). Autograd runs CUDA backward functions on a
// thread of its own: their phases go to the PhaseTimes active for the device (one per process).
#include <c10/core/Device.h>
#include <c10/core/Event.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trace/trace_recorder.h"

namespace moe::trace {

class PhaseTimes {
 public:
  PhaseTimes() = default;
  // Times phases with events on `device` when it is a CUDA device, else with the wall clock.
  explicit PhaseTimes(const c10::Device& device) : device_(device) {}

  void add(const std::string& phase, double ms) { ms_[phase] += ms; }
  void clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    ms_.clear();
    pending_.clear();
  }
  // Phase name -> milliseconds; waits for the device work of the phases timed with events.
  const std::map<std::string, double>& ms() const;

  bool on_device() const { return device_.is_cuda(); }
  // An event recorded now on the device's current stream (on_device() only).
  c10::Event device_mark() const;
  // The phase ran on the device from `start` to `end` (both from device_mark()).
  // Any thread (see device_phase_times()).
  void add_device(const char* phase, c10::Event start, c10::Event end) {
    const std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back({phase, std::move(start), std::move(end)});
  }

 private:
  struct Pending {
    const char* phase;
    c10::Event start, end;
  };
  c10::Device device_{c10::kCPU};
  mutable std::map<std::string, double> ms_;
  mutable std::mutex mutex_;
  mutable std::vector<Pending> pending_;
};

namespace detail {
inline PhaseTimes*& active_phase_times() {
  thread_local PhaseTimes* active = nullptr;
  return active;
}
// The PhaseTimes timing device work, for threads with none of their own: autograd runs CUDA
// backward functions on a thread of its own, whose phases (dispatch_backward, ...) belong to the
// step that waits for them.
inline std::atomic<PhaseTimes*>& device_phase_times() {
  static std::atomic<PhaseTimes*> active{nullptr};
  return active;
}
inline PhaseTimes* phase_times_here() {
  PhaseTimes* own = active_phase_times();
  return own ? own : device_phase_times().load();
}
}  // namespace detail

// Makes `times` the place this thread's ScopedPhases record into, until destroyed; one timing a
// device is also the place for threads that have none.
class ActivePhaseTimes {
 public:
  explicit ActivePhaseTimes(PhaseTimes* times)
      : previous_(detail::active_phase_times()),
        previous_device_(times && times->on_device() ? detail::device_phase_times().exchange(times)
                                                     : nullptr),
        set_device_(times && times->on_device()) {
    detail::active_phase_times() = times;
  }
  ~ActivePhaseTimes() {
    detail::active_phase_times() = previous_;
    if (set_device_) detail::device_phase_times() = previous_device_;
  }
  ActivePhaseTimes(const ActivePhaseTimes&) = delete;
  ActivePhaseTimes& operator=(const ActivePhaseTimes&) = delete;

 private:
  PhaseTimes* previous_;
  PhaseTimes* previous_device_;
  bool set_device_;
};

// Adds the time from construction to destruction to `phase` of the active PhaseTimes, if any.
class ScopedPhase {
 public:
  explicit ScopedPhase(const char* phase)
      : times_(detail::phase_times_here()), trace_(detail::active_trace().load()), phase_(phase) {
    if (times_ && times_->on_device()) device_start_.emplace(times_->device_mark());
    if (times_ || trace_) start_ = std::chrono::steady_clock::now();
  }
  ~ScopedPhase() {
    if (!times_ && !trace_) return;
    const auto end = std::chrono::steady_clock::now();
    if (trace_) trace_->span(phase_, start_, end);
    if (device_start_) {
      times_->add_device(phase_, std::move(*device_start_), times_->device_mark());
    } else if (times_) {
      times_->add(phase_, std::chrono::duration<double, std::milli>(end - start_).count());
    }
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimes* times_;
  TraceRecorder* trace_;
  const char* phase_;
  std::optional<c10::Event> device_start_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace moe::trace

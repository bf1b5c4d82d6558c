#include "trace/phase_timer.h"

#include <c10/core/Stream.h>
#include <c10/core/impl/VirtualGuardImpl.h>

namespace moe::trace {

c10::Event PhaseTimes::device_mark() const {
  // BACKEND_DEFAULT: an event that keeps its time (PyTorch's default event does not).
  c10::Event event(device_.type(), c10::EventFlag::BACKEND_DEFAULT);
  const c10::impl::VirtualGuardImpl guard(device_.type());
  event.record(guard.getStream(device_));
  return event;
}

const std::map<std::string, double>& PhaseTimes::ms() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const Pending& p : pending_) {
    p.end.synchronize();
    ms_[p.phase] += p.start.elapsedTime(p.end);
  }
  pending_.clear();
  return ms_;
}

}  // namespace moe::trace

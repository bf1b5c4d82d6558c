#include "telemetry/trace_recorder.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace moe {

namespace {

// Small, stable thread ids for the trace (the OS ids are long and unreadable in the viewer).
int trace_thread_id() {
  static std::atomic<int> next{1};
  thread_local int id = next.fetch_add(1);
  return id;
}

int64_t micros(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

}  // namespace

TraceRecorder::TraceRecorder(size_t max_events) : origin_(Clock::now()), max_events_(max_events) {}

void TraceRecorder::span(const char* name, Clock::time_point start, Clock::time_point end) {
  const int tid = trace_thread_id();
  std::lock_guard<std::mutex> lock(mutex_);
  if (events_.size() >= max_events_) {
    ++dropped_;
    return;
  }
  events_.push_back({name, micros(start - origin_), micros(end - start), tid});
}

void TraceRecorder::name_thread(const std::string& name) {
  const int tid = trace_thread_id();
  std::lock_guard<std::mutex> lock(mutex_);
  thread_names_.emplace_back(tid, name);
}

size_t TraceRecorder::events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_.size();
}

size_t TraceRecorder::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

void TraceRecorder::write(const std::string& path) const {
  const int pid = static_cast<int>(getpid());
  nlohmann::json events = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [tid, name] : thread_names_) {
      events.push_back({{"ph", "M"},
                        {"name", "thread_name"},
                        {"pid", pid},
                        {"tid", tid},
                        {"args", {{"name", name}}}});
    }
    for (const Event& e : events_) {
      events.push_back({{"ph", "X"},
                        {"name", e.name},
                        {"cat", "moe"},
                        {"pid", pid},
                        {"tid", e.tid},
                        {"ts", e.start_us},
                        {"dur", e.duration_us}});
    }
  }
  nlohmann::json doc = {{"traceEvents", std::move(events)},
                        {"displayTimeUnit", "ms"},
                        {"otherData", {{"dropped_events", dropped()}}}};
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << doc.dump();
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

}  // namespace moe

#include "trace/trace_recorder.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace moe::trace {

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

int64_t unix_micros_now() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TraceRecorder::TraceRecorder(size_t max_events)
    : origin_(Clock::now()),
      origin_unix_us_(unix_micros_now()),
      max_events_(max_events),
      pid_(static_cast<int>(getpid())) {}

void TraceRecorder::span(const char* name, Clock::time_point start, Clock::time_point end) {
  const int tid = trace_thread_id();
  std::lock_guard<std::mutex> lock(mutex_);
  if (events_.size() + counters_.size() >= max_events_) {
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

void TraceRecorder::name_process(int pid, const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  pid_ = pid;
  process_name_ = name;
}

void TraceRecorder::counter(const std::string& name, int64_t step, const std::string& series,
                            double value) {
  if (!std::isfinite(value)) return;
  const int64_t now_us = micros(Clock::now() - origin_);
  std::lock_guard<std::mutex> lock(mutex_);
  // The series of one step arrive together (the layers' expert_load events): look back a little.
  Counter* c = nullptr;
  for (auto it = counters_.rbegin(); it != counters_.rend() && it - counters_.rbegin() < 64; ++it) {
    if (it->name == name && it->step == step) {
      c = &*it;
      break;
    }
  }
  if (!c) {
    if (events_.size() + counters_.size() >= max_events_) {
      ++dropped_;
      return;
    }
    counters_.push_back({name, step, now_us, {}});
    c = &counters_.back();
  }
  for (auto& [key, v] : c->series) {
    if (key == series) {
      v = value;
      return;
    }
  }
  c->series.emplace_back(series, value);
}

size_t TraceRecorder::events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_.size();
}

size_t TraceRecorder::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

nlohmann::json TraceRecorder::document() const {
  nlohmann::json events = nlohmann::json::array();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!process_name_.empty()) {
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", pid_},
                      {"args", {{"name", process_name_}}}});
    // Perfetto and chrome://tracing sort processes by this: rank 0 first.
    events.push_back({{"ph", "M"},
                      {"name", "process_sort_index"},
                      {"pid", pid_},
                      {"args", {{"sort_index", pid_}}}});
  }
  for (const auto& [tid, name] : thread_names_) {
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", pid_},
                      {"tid", tid},
                      {"args", {{"name", name}}}});
  }
  for (const Event& e : events_) {
    events.push_back({{"ph", "X"},
                      {"name", e.name},
                      {"cat", "moe"},
                      {"pid", pid_},
                      {"tid", e.tid},
                      {"ts", e.start_us},
                      {"dur", e.duration_us}});
  }
  for (const Counter& c : counters_) {
    nlohmann::json args = nlohmann::json::object();
    for (const auto& [series, value] : c.series) args[series] = value;
    events.push_back({{"ph", "C"},
                      {"name", c.name},
                      {"cat", "moe"},
                      {"pid", pid_},
                      {"ts", c.ts_us},
                      {"args", std::move(args)}});
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"dropped_events", dropped_}, {"origin_unix_us", origin_unix_us_}}}};
}

void write_trace_file(const std::string& path, const nlohmann::json& document) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

void TraceRecorder::write(const std::string& path) const {
  write_trace_file(path, document());
}

}  // namespace moe::trace

// EventFields: typed, tolerant access to one telemetry event's JSON fields, for the event parser
// (telemetry_event_parser.cpp). Internal to moe_protocol: readers use telemetry_reader.h.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/json_text.h"
#include "protocol/telemetry_events.h"

namespace moe::protocol::detail {

// Typed access to an event's fields. The first failure is remembered; later calls return
// defaults, so a parser reads straight through and checks ok() once.
class EventFields {
 public:
  using json = nlohmann::json;
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

  explicit EventFields(const json& object) : object_(object) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  int64_t integer(const char* key) {
    const json* v = find(key);
    if (!v) return 0;
    std::optional<int64_t> i = detail::json_to_int64(*v, nullptr);
    if (!i) fail(key, "an integer", *v);
    return i.value_or(0);
  }

  double number(const char* key) {
    const json* v = find(key);
    return v ? as_number(key, *v) : 0.0;
  }

  std::optional<double> optional_number(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end()) return std::nullopt;
    return as_number(key, *it);
  }

  std::string string(const char* key) {
    const json* v = find(key);
    return v ? as_string(key, *v) : std::string();
  }

  // Absent (or null) gives nullopt; the writer leaves optional strings out.
  std::optional<std::string> optional_string(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    return as_string(key, *it);
  }

  std::vector<int64_t> integers(const char* key) {
    std::vector<int64_t> out;
    const json* v = find_array(key);
    if (!v) return out;
    out.reserve(v->size());
    for (const json& item : *v) {
      std::optional<int64_t> i = detail::json_to_int64(item, nullptr);
      if (!i) {
        fail(key, "an array of integers", item);
        return {};
      }
      out.push_back(*i);
    }
    return out;
  }

  std::vector<double> numbers(const char* key) {
    std::vector<double> out;
    const json* v = find_array(key);
    if (!v) return out;
    out.reserve(v->size());
    for (const json& item : *v) {
      if (!item.is_number() && !item.is_null()) {
        fail(key, "an array of numbers", item);
        return {};
      }
      out.push_back(item.is_null() ? kNaN : item.get<double>());
    }
    return out;
  }

  const json* find(const char* key) {
    auto it = object_.find(key);
    if (it != object_.end()) return &*it;
    if (ok()) error_ = std::string("missing \"") + key + "\"";
    return nullptr;
  }

  void fail(const char* key, const char* expected, const json& got) {
    if (ok()) {
      error_ = std::string("\"") + key + "\": expected " + expected + ", got " +
               detail::describe_json(got);
    }
  }

  void fail(std::string message) {
    if (ok()) error_ = std::move(message);
  }

 private:
  double as_number(const char* key, const json& v) {
    if (v.is_null()) return kNaN;  // what writers emit for NaN and inf
    if (!v.is_number()) {
      fail(key, "a number", v);
      return 0.0;
    }
    return v.get<double>();
  }

  std::string as_string(const char* key, const json& v) {
    if (v.is_string()) return v.get<std::string>();
    fail(key, "a string", v);
    return {};
  }

  const json* find_array(const char* key) {
    const json* v = find(key);
    if (v && !v->is_array()) {
      fail(key, "an array", *v);
      return nullptr;
    }
    return v;
  }

  const json& object_;
  std::string error_;
};

}  // namespace moe::protocol::detail

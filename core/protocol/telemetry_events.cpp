#include "protocol/telemetry_events.h"

#include <type_traits>

#include "protocol/telemetry_event_fields.h"

namespace moe::protocol {
namespace {

// The common header of every line.
template <class Event>
nlohmann::json header(const Event& e) {
  return nlohmann::json{{"v", kTelemetryVersion}, {"type", std::string(Event::kType)}, {"t", e.t}};
}

// Writes the fields visit_event lists into a JSON object.
class JsonWriter {
 public:
  explicit JsonWriter(nlohmann::json& out) : out_(out) {}

  template <class T>
  void field(const char* key, const T& value) {
    out_[key] = value;
  }
  template <class T>
  void optional(const char* key, const std::optional<T>& value) {
    if (value) out_[key] = *value;
  }
  void text_or_empty(const char* key, const std::string& value) { out_[key] = value; }
  void nonzero(const char* key, const int64_t& value) {
    if (value > 0) out_[key] = value;
  }
  void object(const char* key, const nlohmann::json& value) { out_[key] = value; }
  template <class K>
  void number_map(const char* key, const std::map<K, double>& values) {
    nlohmann::json& map = out_[key] = nlohmann::json::object();
    for (const auto& [name, number] : values) {
      if constexpr (std::is_same_v<K, std::string>) {
        map[name] = number;
      } else {
        map[std::to_string(name)] = number;  // JSON keys are strings: decimal text
      }
    }
  }
  template <class R>
  void records(const char* key, const std::vector<R>& values) {
    nlohmann::json& array = out_[key] = nlohmann::json::array();
    for (const R& value : values) {
      nlohmann::json record = nlohmann::json::object();
      JsonWriter writer(record);
      visit_event(value, writer);
      array.push_back(std::move(record));
    }
  }

 private:
  nlohmann::json& out_;
};

template <class Event>
nlohmann::json event_json(const Event& e) {
  nlohmann::json j = header(e);
  JsonWriter writer(j);
  visit_event(e, writer);
  return j;
}

}  // namespace

nlohmann::json to_json(const RunStartEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const StepEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const ExpertLoadEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const PhasesEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const EvalEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const CheckpointEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const LogEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const RunEndEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const RanksEvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const AdaptiveREvent& e) {
  return event_json(e);
}
nlohmann::json to_json(const CaptureEvent& e) {
  return event_json(e);
}

nlohmann::json to_json(const TelemetryEvent& e) {
  return std::visit([](const auto& event) { return to_json(event); }, e);
}

std::string_view event_type(const TelemetryEvent& e) {
  return std::visit([](const auto& event) { return std::decay_t<decltype(event)>::kType; }, e);
}

double event_time(const TelemetryEvent& e) {
  return std::visit([](const auto& event) { return event.t; }, e);
}

}  // namespace moe::protocol

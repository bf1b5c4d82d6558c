// parse_event_line / event_from_json: one line or JSON value to a typed event (see
// telemetry_reader.h for the rules).
#include "protocol/telemetry_reader.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/json_text.h"
#include "protocol/telemetry_event_fields.h"
#include "protocol/telemetry_fields.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;
using detail::EventFields;
constexpr double kNaN = EventFields::kNaN;

// run_start's config is kept as JSON and later copied and dumped, both recursive in nlohmann: a
// hostile line nested a million deep would overflow the stack there. A real config is 3 deep.
constexpr size_t kMaxConfigDepth = 64;

bool deeper_than(const json& root, size_t limit) {
  std::vector<std::pair<const json*, size_t>> stack{{&root, 1}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > limit) return true;
    if (node->is_structured()) {
      for (const json& child : *node) stack.push_back({&child, depth + 1});
    }
  }
  return false;
}

// A capture's path is opened relative to the run directory: it must stay inside it.
bool inside_run_directory(const std::string& path) {
  if (path.empty() || path.front() == '/' || path.find('\\') != std::string::npos) return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0 && end - start == 2) return false;
    start = end + 1;
  }
  return true;
}

// "tried" keys are r in decimal ("0", "12"); anything else ("01", "x", "1.5") is malformed.
std::optional<int64_t> r_key(const std::string& key) {
  int64_t r = 0;
  const char* end = key.data() + key.size();
  auto [ptr, ec] = std::from_chars(key.data(), end, r);
  if (ec != std::errc() || ptr != end || std::to_string(r) != key) return std::nullopt;
  return r;
}

// The rules beyond each field's type, for the events (and records) that have them.
template <class Event>
void check(Event&, EventFields&) {}

void check(ExpertLoadEvent& e, EventFields& f) {
  // Views index all three by expert: unequal lengths would read out of bounds there.
  if (e.kept.size() != e.counts.size() || e.importance.size() != e.counts.size()) {
    f.fail("counts, kept and importance differ in length");
  } else if (e.bias && e.bias->size() != e.counts.size()) {
    f.fail("\"bias\": expected " + std::to_string(e.counts.size()) +
           " numbers (one per expert), got " + std::to_string(e.bias->size()));
  }
}

void check(RankFigures& r, EventFields& f) {
  if (r.rank < 0) f.fail("\"rank\": must be >= 0, got " + std::to_string(r.rank));
}

void check(RanksEvent& e, EventFields& f) {
  // Views key their rows by rank: one step cannot say two things about one rank.
  std::vector<int64_t> seen;
  for (const RankFigures& r : e.ranks) seen.push_back(r.rank);
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
    f.fail("\"ranks\": a rank appears twice");
  }
}

void check(CaptureEvent& e, EventFields& f) {
  if (e.step < 0 || e.layer < 0 || e.bytes < 0 || e.tokens < 0) {
    f.fail("step, layer, bytes and tokens must be >= 0");
  } else if (!inside_run_directory(e.path)) {
    f.fail("\"path\": expected a path inside the run directory, got " + detail::quote(e.path));
  }
}

// Reads the fields visit_event lists out of one JSON object; the first problem stays in `f`.
class FieldReader {
 public:
  FieldReader(json& object, EventFields& f) : object_(object), f_(f) {}

  void field(const char* key, int64_t& out) { out = f_.integer(key); }
  void field(const char* key, double& out) { out = f_.number(key); }
  void field(const char* key, std::string& out) { out = f_.string(key); }
  void field(const char* key, std::vector<int64_t>& out) { out = f_.integers(key); }
  void field(const char* key, std::vector<double>& out) { out = f_.numbers(key); }

  void optional(const char* key, std::optional<int64_t>& out) {
    if (object_.contains(key)) out = f_.integer(key);
  }
  void optional(const char* key, std::optional<double>& out) { out = f_.optional_number(key); }
  void optional(const char* key, std::optional<std::string>& out) { out = f_.optional_string(key); }
  void optional(const char* key, std::optional<std::vector<double>>& out) {
    auto it = object_.find(key);
    if (it != object_.end() && !it->is_null()) out = f_.numbers(key);
  }
  void text_or_empty(const char* key, std::string& out) {
    out = f_.optional_string(key).value_or("");
  }
  void nonzero(const char* key, int64_t& out) {
    if (object_.contains(key)) out = f_.integer(key);
  }

  void object(const char* key, json& out) {
    const json* value = f_.find(key);
    if (!value) return;
    if (!value->is_object()) {
      f_.fail(key, "an object", *value);
    } else if (deeper_than(*value, kMaxConfigDepth)) {
      f_.fail(std::string("\"") + key + "\": nested too deeply");
    } else {
      out = std::move(object_[key]);
    }
  }

  template <class K>
  void number_map(const char* key, std::map<K, double>& out) {
    const json* map = f_.find(key);
    if (map && !map->is_object()) f_.fail(key, "an object", *map);
    if (!map || !map->is_object()) return;
    const std::string where = std::string("\"") + key + "\": ";
    for (const auto& item : map->items()) {
      K name;
      if constexpr (std::is_same_v<K, std::string>) {
        name = item.key();
      } else {
        const std::optional<int64_t> r = r_key(item.key());
        if (!r) {
          f_.fail(where + "expected integer keys, got " + detail::quote(item.key()));
          return;
        }
        name = *r;
      }
      const json& v = item.value();
      if (!v.is_number() && !v.is_null()) {
        f_.fail(where + "expected numbers, got " + detail::describe_json(v));
        return;
      }
      out[name] = v.is_null() ? kNaN : v.get<double>();
    }
  }

  template <class R>
  void records(const char* key, std::vector<R>& out) {
    if (!f_.find(key)) return;
    json& array = object_[key];
    if (!array.is_array()) {
      f_.fail(key, "an array", array);
      return;
    }
    if (!f_.ok()) return;
    out.reserve(array.size());
    for (size_t i = 0; i < array.size() && f_.ok(); ++i) {
      const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
      json& item = array[i];
      R record;
      if (!item.is_object()) {
        f_.fail("\"" + where + "\": expected an object, got " + detail::describe_json(item));
      } else {
        EventFields g(item);
        FieldReader reader(item, g);
        visit_event(record, reader);
        if (g.ok()) check(record, g);
        if (!g.ok()) f_.fail(where + ": " + g.error());
      }
      out.push_back(std::move(record));
    }
  }

 private:
  json& object_;
  EventFields& f_;
};

// The event of type `type` (any of TelemetryEvent's), read from its fields; nullopt for a type
// this build does not know.
template <size_t I = 0>
std::optional<TelemetryEvent> parse_fields(const std::string& type, json& j, EventFields& f) {
  if constexpr (I == std::variant_size_v<TelemetryEvent>) {
    return std::nullopt;
  } else {
    using Event = std::variant_alternative_t<I, TelemetryEvent>;
    if (type != Event::kType) return parse_fields<I + 1>(type, j, f);
    Event e;
    FieldReader reader(j, f);
    visit_event(e, reader);
    if (f.ok()) check(e, f);
    return e;
  }
}

std::optional<TelemetryEvent> event_from_json_impl(json& j, LineKind* kind, std::string* error) {
  auto malformed = [&](std::string why) -> std::optional<TelemetryEvent> {
    *kind = LineKind::kMalformed;
    *error = std::move(why);
    return std::nullopt;
  };
  if (!j.is_object()) return malformed("not a JSON object: " + detail::describe_json(j));
  auto v = j.find("v");
  if (v == j.end()) return malformed("missing \"v\"");
  std::optional<int64_t> version = detail::json_to_int64(*v, nullptr);
  if (!version || *version < 1)
    return malformed("\"v\": expected 1, got " + detail::describe_json(*v));
  auto type = j.find("type");
  if (type == j.end() || !type->is_string()) return malformed("missing \"type\" string");
  if (*version != kTelemetryVersion) {  // a newer writer: skip rather than misread
    *kind = LineKind::kUnknown;
    *error = "unsupported version " + std::to_string(*version);
    return std::nullopt;
  }
  const std::string type_name = type->get<std::string>();
  EventFields f(j);
  double t = f.number("t");
  std::optional<TelemetryEvent> event = parse_fields(type_name, j, f);
  if (!event) {
    *kind = LineKind::kUnknown;
    *error = "unknown type " + detail::quote(type_name);
    return std::nullopt;
  }
  if (!f.ok()) return malformed(type_name + ": " + f.error());
  std::visit([t](auto& e) { e.t = t; }, *event);
  *kind = LineKind::kEvent;
  return event;
}

bool is_blank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

}  // namespace

std::optional<TelemetryEvent> event_from_json(json& json, LineKind* kind, std::string* error) {
  LineKind local_kind;
  std::string local_error;
  if (!kind) kind = &local_kind;
  if (!error) error = &local_error;
  error->clear();
  try {
    return event_from_json_impl(json, kind, error);
  } catch (const std::exception& e) {  // bad_alloc; nothing else is expected
    *kind = LineKind::kMalformed;
    *error = e.what();
    return std::nullopt;
  }
}

std::optional<TelemetryEvent> parse_event_line(std::string_view line, LineKind* kind,
                                               std::string* error) {
  LineKind local_kind;
  std::string local_error;
  if (!kind) kind = &local_kind;
  if (!error) error = &local_error;
  error->clear();
  if (is_blank(line)) {
    *kind = LineKind::kBlank;
    return std::nullopt;
  }
  try {
    json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      *kind = LineKind::kMalformed;
      *error = "not valid JSON";
      return std::nullopt;
    }
    return event_from_json(j, kind, error);
  } catch (const std::exception& e) {
    *kind = LineKind::kMalformed;
    *error = e.what();
    return std::nullopt;
  }
}

}  // namespace moe::protocol

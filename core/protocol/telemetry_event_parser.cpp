// parse_event_line / event_from_json: one line or JSON value to a typed event (see
// telemetry_reader.h for the rules).
#include "protocol/telemetry_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "protocol/json_text.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// Typed access to an event's fields. The first failure is remembered; later calls return
// defaults, so a parser reads straight through and checks ok() once.
class Fields {
 public:
  explicit Fields(const json& object) : object_(object) {}

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

// One entry of ranks[]; `where` is "ranks[i]" for the error.
RankFigures parse_rank(const json& item, const std::string& where, Fields& f) {
  RankFigures r;
  if (!item.is_object()) {
    f.fail("\"" + where + "\": expected an object, got " + detail::describe_json(item));
    return r;
  }
  Fields g(item);
  r.rank = g.integer("rank");
  r.host = g.optional_string("host").value_or("");
  r.step_ms = g.number("step_ms");
  r.compute_ms = g.number("compute_ms");
  r.a2a_ms = g.number("a2a_ms");
  r.allreduce_ms = g.number("allreduce_ms");
  r.tokens = g.integer("tokens");
  r.peak_bytes = g.integer("peak_bytes");
  if (g.ok() && r.rank < 0) g.fail("\"rank\": must be >= 0, got " + std::to_string(r.rank));
  if (!g.ok()) f.fail(where + ": " + g.error());
  return r;
}

RanksEvent parse_ranks(Fields& f) {
  RanksEvent e;
  e.step = f.integer("step");
  const json* ranks = f.find("ranks");
  if (ranks && !ranks->is_array()) f.fail("ranks", "an array", *ranks);
  if (!ranks || !ranks->is_array() || !f.ok()) return e;
  e.ranks.reserve(ranks->size());
  std::vector<int64_t> seen;
  for (size_t i = 0; i < ranks->size() && f.ok(); ++i) {
    e.ranks.push_back(parse_rank((*ranks)[i], "ranks[" + std::to_string(i) + "]", f));
    seen.push_back(e.ranks.back().rank);
  }
  // Views key their rows by rank: one step cannot say two things about one rank.
  std::sort(seen.begin(), seen.end());
  if (f.ok() && std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
    f.fail("\"ranks\": a rank appears twice");
  }
  return e;
}

// "tried" keys are r in decimal ("0", "12"); anything else ("01", "x", "1.5") is malformed.
std::optional<int64_t> r_key(const std::string& key) {
  int64_t r = 0;
  const char* end = key.data() + key.size();
  auto [ptr, ec] = std::from_chars(key.data(), end, r);
  if (ec != std::errc() || ptr != end || std::to_string(r) != key) return std::nullopt;
  return r;
}

AdaptiveREvent parse_adaptive_r(Fields& f) {
  AdaptiveREvent e;
  e.step = f.integer("step");
  e.r = f.integer("r");
  const json* tried = f.find("tried");
  if (tried && !tried->is_object()) f.fail("tried", "an object", *tried);
  if (tried && tried->is_object()) {
    for (const auto& item : tried->items()) {
      std::optional<int64_t> r = r_key(item.key());
      const json& v = item.value();
      if (!r) {
        f.fail("\"tried\": expected integer keys, got " + detail::quote(item.key()));
        break;
      }
      if (!v.is_number() && !v.is_null()) {
        f.fail("\"tried\": expected numbers, got " + detail::describe_json(v));
        break;
      }
      e.tried[*r] = v.is_null() ? kNaN : v.get<double>();
    }
  }
  e.reason = f.optional_string("reason").value_or("");
  return e;
}

std::optional<TelemetryEvent> parse_fields(const std::string& type, json& j, Fields& f) {
  if (type == RunStartEvent::kType) {
    RunStartEvent e;
    e.run_id = f.string("run_id");
    e.world_size = f.integer("world_size");
    for (auto [key, out] : {std::pair{"device", &e.device}, std::pair{"host", &e.host},
                            std::pair{"engine_version", &e.engine_version},
                            std::pair{"torch_version", &e.torch_version}}) {
      *out = f.optional_string(key).value_or("");
    }
    if (j.contains("expert_parameters")) e.expert_parameters = f.integer("expert_parameters");
    if (j.contains("dense_parameters")) e.dense_parameters = f.integer("dense_parameters");
    if (const json* config = f.find("config")) {
      if (!config->is_object()) {
        f.fail("config", "an object", *config);
      } else if (deeper_than(*config, kMaxConfigDepth)) {
        f.fail("\"config\": nested too deeply");
      } else if (f.ok()) {
        e.config = std::move(j["config"]);
      }
    }
    return e;
  }
  if (type == StepEvent::kType) {
    StepEvent e;
    e.step = f.integer("step");
    e.loss = f.number("loss");
    e.task_loss = f.number("task_loss");
    e.aux_loss = f.number("aux_loss");
    e.z_loss = f.number("z_loss");
    e.lr = f.number("lr");
    e.grad_norm = f.number("grad_norm");
    e.tokens = f.integer("tokens");
    e.tokens_per_s = f.number("tokens_per_s");
    e.step_ms = f.number("step_ms");
    e.tflops = f.optional_number("tflops");
    return e;
  }
  if (type == ExpertLoadEvent::kType) {
    ExpertLoadEvent e;
    e.step = f.integer("step");
    e.layer = f.integer("layer");
    e.counts = f.integers("counts");
    e.kept = f.integers("kept");
    e.capacity = f.integer("capacity");
    e.dropped_frac = f.number("dropped_frac");
    e.cv = f.number("cv");
    e.max_over_mean = f.number("max_over_mean");
    e.load_entropy = f.number("load_entropy");
    e.router_entropy = f.number("router_entropy");
    e.dead_experts = f.integer("dead_experts");
    e.importance = f.numbers("importance");
    e.l_aux = f.number("l_aux");
    e.z_loss = f.number("z_loss");
    // Views index all three by expert: unequal lengths would read out of bounds there.
    if (f.ok() && (e.kept.size() != e.counts.size() || e.importance.size() != e.counts.size())) {
      f.fail("counts, kept and importance differ in length");
    }
    return e;
  }
  if (type == PhasesEvent::kType) {
    PhasesEvent e;
    e.step = f.integer("step");
    const json* ms = f.find("ms");
    if (ms && !ms->is_object()) f.fail("ms", "an object", *ms);
    if (ms && ms->is_object()) {
      for (const auto& item : ms->items()) {
        const json& v = item.value();
        if (!v.is_number() && !v.is_null()) {
          f.fail("\"ms\": expected numbers, got " + detail::describe_json(v));
          break;
        }
        e.ms[item.key()] = v.is_null() ? kNaN : v.get<double>();
      }
    }
    return e;
  }
  if (type == EvalEvent::kType) {
    EvalEvent e;
    e.step = f.integer("step");
    e.loss = f.number("loss");
    e.accuracy = f.optional_number("accuracy");
    return e;
  }
  if (type == CheckpointEvent::kType) {
    CheckpointEvent e;
    e.step = f.integer("step");
    e.path = f.string("path");
    return e;
  }
  if (type == LogEvent::kType) {
    LogEvent e;
    e.level = f.string("level");
    e.msg = f.string("msg");
    return e;
  }
  if (type == RunEndEvent::kType) {
    RunEndEvent e;
    e.status = f.string("status");
    e.steps = f.integer("steps");
    e.error = f.optional_string("error");
    return e;
  }
  if (type == RanksEvent::kType) return parse_ranks(f);
  if (type == AdaptiveREvent::kType) return parse_adaptive_r(f);
  return std::nullopt;  // unknown type
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
  Fields f(j);
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

// parse_event_line / event_from_json: one line or JSON value to a typed event (see
// telemetry_reader.h for the rules).
#include "protocol/telemetry_reader.h"

#include <limits>
#include <utility>

#include "protocol/json_text.h"
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

CaptureEvent parse_capture(EventFields& f) {
  CaptureEvent e;
  e.step = f.integer("step");
  e.layer = f.integer("layer");
  e.path = f.string("path");
  e.bytes = f.integer("bytes");
  e.tokens = f.integer("tokens");
  if (!f.ok()) return e;
  if (e.step < 0 || e.layer < 0 || e.bytes < 0 || e.tokens < 0) {
    f.fail("step, layer, bytes and tokens must be >= 0");
  } else if (!inside_run_directory(e.path)) {
    f.fail("\"path\": expected a path inside the run directory, got " + detail::quote(e.path));
  }
  return e;
}

std::optional<TelemetryEvent> parse_fields(const std::string& type, json& j, EventFields& f) {
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
    if (j.contains("resumed_step")) e.resumed_step = f.integer("resumed_step");
    if (j.contains("restart")) e.restart = f.integer("restart");
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
  if (type == CaptureEvent::kType) return parse_capture(f);
  return detail::parse_parallel_event(type, f);  // nullopt: an unknown type
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

#include "protocol/telemetry_events.h"

namespace moe::protocol {
namespace {

// The common header of every line.
template <class Event>
nlohmann::json header(const Event& e) {
  return nlohmann::json{{"v", kTelemetryVersion}, {"type", std::string(Event::kType)}, {"t", e.t}};
}

}  // namespace

nlohmann::json to_json(const RunStartEvent& e) {
  nlohmann::json j = header(e);
  j["run_id"] = e.run_id;
  j["config"] = e.config;
  j["world_size"] = e.world_size;
  j["device"] = e.device;
  j["host"] = e.host;
  j["engine_version"] = e.engine_version;
  j["torch_version"] = e.torch_version;
  if (e.expert_parameters) j["expert_parameters"] = *e.expert_parameters;
  if (e.dense_parameters) j["dense_parameters"] = *e.dense_parameters;
  if (e.resumed_step) j["resumed_step"] = *e.resumed_step;
  if (e.restart > 0) j["restart"] = e.restart;
  return j;
}

nlohmann::json to_json(const StepEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["loss"] = e.loss;
  j["task_loss"] = e.task_loss;
  j["aux_loss"] = e.aux_loss;
  j["z_loss"] = e.z_loss;
  j["lr"] = e.lr;
  j["grad_norm"] = e.grad_norm;
  j["tokens"] = e.tokens;
  j["tokens_per_s"] = e.tokens_per_s;
  j["step_ms"] = e.step_ms;
  if (e.tflops) j["tflops"] = *e.tflops;
  return j;
}

nlohmann::json to_json(const ExpertLoadEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["layer"] = e.layer;
  j["counts"] = e.counts;
  j["kept"] = e.kept;
  j["capacity"] = e.capacity;
  j["dropped_frac"] = e.dropped_frac;
  j["cv"] = e.cv;
  j["max_over_mean"] = e.max_over_mean;
  j["load_entropy"] = e.load_entropy;
  j["router_entropy"] = e.router_entropy;
  j["dead_experts"] = e.dead_experts;
  j["importance"] = e.importance;
  j["l_aux"] = e.l_aux;
  j["z_loss"] = e.z_loss;
  return j;
}

nlohmann::json to_json(const PhasesEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["ms"] = nlohmann::json::object();
  for (const auto& [name, ms] : e.ms) j["ms"][name] = ms;
  return j;
}

nlohmann::json to_json(const EvalEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["loss"] = e.loss;
  if (e.accuracy) j["accuracy"] = *e.accuracy;
  return j;
}

nlohmann::json to_json(const CheckpointEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["path"] = e.path;
  return j;
}

nlohmann::json to_json(const LogEvent& e) {
  nlohmann::json j = header(e);
  j["level"] = e.level;
  j["msg"] = e.msg;
  return j;
}

nlohmann::json to_json(const RunEndEvent& e) {
  nlohmann::json j = header(e);
  j["status"] = e.status;
  j["steps"] = e.steps;
  if (e.error) j["error"] = *e.error;
  return j;
}

nlohmann::json to_json(const RanksEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["ranks"] = nlohmann::json::array();
  for (const RankFigures& r : e.ranks) {
    j["ranks"].push_back({{"rank", r.rank},
                          {"host", r.host},
                          {"step_ms", r.step_ms},
                          {"compute_ms", r.compute_ms},
                          {"a2a_ms", r.a2a_ms},
                          {"allreduce_ms", r.allreduce_ms},
                          {"tokens", r.tokens},
                          {"peak_bytes", r.peak_bytes}});
  }
  return j;
}

nlohmann::json to_json(const AdaptiveREvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["r"] = e.r;
  j["tried"] = nlohmann::json::object();  // JSON keys are strings: r as decimal text
  for (const auto& [r, ms] : e.tried) j["tried"][std::to_string(r)] = ms;
  j["reason"] = e.reason;
  return j;
}

nlohmann::json to_json(const CaptureEvent& e) {
  nlohmann::json j = header(e);
  j["step"] = e.step;
  j["layer"] = e.layer;
  j["path"] = e.path;
  j["bytes"] = e.bytes;
  j["tokens"] = e.tokens;
  return j;
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

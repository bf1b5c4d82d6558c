// The fields of every telemetry event (docs/PROTOCOL.md, "Telemetry"), written once. The JSON
// writer (to_json), the tolerant parser (parse_event_line) and the app's CSV export all walk
// these lists, so a field added here is written, read and exported. "v", "type" and "t" are every
// line's header, not listed. The order is the CSV's column order (JSON objects sort their keys).
//
// visit_event(e, v) calls, for each field of `e` (an event or `const` one), one of:
//   v.field(key, T& value)        // always written; a reader requires it. T: int64_t, double,
//                                 // std::string, std::vector<int64_t>, std::vector<double>
//   v.optional(key, std::optional<T>& value)   // written when set; absent (or null) reads unset;
//                                              // T: as for field
//   v.text_or_empty(key, std::string& value)   // always written; absent or null reads ""
//   v.nonzero(key, int64_t& value)             // written when > 0; absent reads 0
//   v.object(key, nlohmann::json& value)       // a JSON object kept as it is (run_start's config)
//   v.number_map(key, std::map<K, double>& value)  // {name: number}; K std::string, or int64_t
//                                                  // written as decimal text
//   v.records(key, std::vector<R>& value)      // an array of objects, each R visited in turn
#pragma once

#include "protocol/telemetry_events.h"

namespace moe::protocol {

template <class E, class V>
void visit_event(E& e, V& v) {
  using Event = std::remove_const_t<E>;
  if constexpr (std::is_same_v<Event, RunStartEvent>) {
    v.field("run_id", e.run_id);
    v.object("config", e.config);
    v.field("world_size", e.world_size);
    v.text_or_empty("device", e.device);
    v.text_or_empty("host", e.host);
    v.text_or_empty("engine_version", e.engine_version);
    v.text_or_empty("torch_version", e.torch_version);
    v.optional("expert_parameters", e.expert_parameters);
    v.optional("dense_parameters", e.dense_parameters);
    v.optional("resumed_step", e.resumed_step);
    v.nonzero("restart", e.restart);
  } else if constexpr (std::is_same_v<Event, StepEvent>) {
    v.field("step", e.step);
    v.field("loss", e.loss);
    v.field("task_loss", e.task_loss);
    v.field("aux_loss", e.aux_loss);
    v.field("z_loss", e.z_loss);
    v.field("lr", e.lr);
    v.field("grad_norm", e.grad_norm);
    v.field("tokens", e.tokens);
    v.field("tokens_per_s", e.tokens_per_s);
    v.field("step_ms", e.step_ms);
    v.optional("tflops", e.tflops);
  } else if constexpr (std::is_same_v<Event, ExpertLoadEvent>) {
    v.field("step", e.step);
    v.field("layer", e.layer);
    v.field("capacity", e.capacity);
    v.field("dropped_frac", e.dropped_frac);
    v.field("cv", e.cv);
    v.field("max_over_mean", e.max_over_mean);
    v.field("load_entropy", e.load_entropy);
    v.field("router_entropy", e.router_entropy);
    v.field("dead_experts", e.dead_experts);
    v.field("l_aux", e.l_aux);
    v.field("z_loss", e.z_loss);
    v.field("counts", e.counts);
    v.field("kept", e.kept);
    v.field("importance", e.importance);
    v.optional("bias", e.bias);
  } else if constexpr (std::is_same_v<Event, PhasesEvent>) {
    v.field("step", e.step);
    v.number_map("ms", e.ms);
  } else if constexpr (std::is_same_v<Event, EvalEvent>) {
    v.field("step", e.step);
    v.field("loss", e.loss);
    v.optional("accuracy", e.accuracy);
  } else if constexpr (std::is_same_v<Event, CheckpointEvent>) {
    v.field("step", e.step);
    v.field("path", e.path);
  } else if constexpr (std::is_same_v<Event, LogEvent>) {
    v.field("level", e.level);
    v.field("msg", e.msg);
  } else if constexpr (std::is_same_v<Event, RunEndEvent>) {
    v.field("status", e.status);
    v.field("steps", e.steps);
    v.optional("error", e.error);
  } else if constexpr (std::is_same_v<Event, RankFigures>) {
    v.field("rank", e.rank);
    v.text_or_empty("host", e.host);
    v.field("step_ms", e.step_ms);
    v.field("compute_ms", e.compute_ms);
    v.field("a2a_ms", e.a2a_ms);
    v.field("allreduce_ms", e.allreduce_ms);
    v.field("tokens", e.tokens);
    v.field("peak_bytes", e.peak_bytes);
  } else if constexpr (std::is_same_v<Event, RanksEvent>) {
    v.field("step", e.step);
    v.records("ranks", e.ranks);
  } else if constexpr (std::is_same_v<Event, AdaptiveREvent>) {
    v.field("step", e.step);
    v.field("r", e.r);
    v.text_or_empty("reason", e.reason);
    v.number_map("tried", e.tried);
  } else if constexpr (std::is_same_v<Event, CaptureEvent>) {
    v.field("step", e.step);
    v.field("layer", e.layer);
    v.field("path", e.path);
    v.field("bytes", e.bytes);
    v.field("tokens", e.tokens);
  } else {
    static_assert(sizeof(Event) == 0, "visit_event: an event type without its field list");
  }
}

}  // namespace moe::protocol

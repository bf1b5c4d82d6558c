// Telemetry events (docs/PROTOCOL.md, "Telemetry"): one struct per event type and its JSON form.
// Every line carries "v": 1, "type" and "t" (seconds since the run started).
//
// Numbers: a non-finite double (NaN, inf, e.g. a diverged loss) is written as JSON null, because
// JSON has no NaN. Readers (telemetry_reader.h) read null as NaN wherever a number is expected;
// so inf comes back as NaN.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace moe::protocol {

inline constexpr int64_t kTelemetryVersion = 1;

struct RunStartEvent {
  static constexpr std::string_view kType = "run_start";
  double t = 0;
  std::string run_id;
  nlohmann::json config = nlohmann::json::object();  // the full resolved RunConfig (to_json)
  int64_t world_size = 1;
  std::string device, host, engine_version, torch_version;
  // The model's parameter count, inside the experts and outside (written when known).
  std::optional<int64_t> expert_parameters, dense_parameters;
  // A resumed or restarted run: the checkpoint step it continues after (written when resuming).
  std::optional<int64_t> resumed_step;
  // moe-train launch --max-restarts: how many times the ranks were started again (written > 0).
  int64_t restart = 0;
};

struct StepEvent {
  static constexpr std::string_view kType = "step";
  double t = 0;
  int64_t step = 0;
  double loss = 0, task_loss = 0, aux_loss = 0, z_loss = 0, lr = 0, grad_norm = 0;
  int64_t tokens = 0;
  double tokens_per_s = 0, step_ms = 0;
  // helloworld only: Tutel's figure B*T*M*H*4*3*k' / step time / 1e12 (written when present).
  std::optional<double> tflops;
};

// docs/ROUTING.md, "Load metrics", per MoE layer. counts, kept and importance have one entry per
// expert.
struct ExpertLoadEvent {
  static constexpr std::string_view kType = "expert_load";
  double t = 0;
  int64_t step = 0, layer = 0;
  std::vector<int64_t> counts, kept;
  int64_t capacity = 0;
  double dropped_frac = 0, cv = 0, max_over_mean = 0, load_entropy = 0, router_entropy = 0;
  int64_t dead_experts = 0;
  std::vector<double> importance;
  double l_aux = 0, z_loss = 0;
  // moe.bias_balancing: the selection bias [E] this step routed with (before the update that
  // follows the step); unset when the layer balances without one.
  std::optional<std::vector<double>> bias;
};

// The phases the engine times; a reader keeps any other name it finds too.
inline constexpr std::array<std::string_view, 8> kPhaseNames = {
    "gate", "dispatch", "a2a", "experts", "combine", "backward", "optimizer", "other"};

struct PhasesEvent {
  static constexpr std::string_view kType = "phases";
  double t = 0;
  int64_t step = 0;
  std::map<std::string, double> ms;  // phase name -> milliseconds
};

struct EvalEvent {
  static constexpr std::string_view kType = "eval";
  double t = 0;
  int64_t step = 0;
  double loss = 0;
  std::optional<double> accuracy;  // absent where it does not apply (lm)
};

struct CheckpointEvent {
  static constexpr std::string_view kType = "checkpoint";
  double t = 0;
  int64_t step = 0;
  std::string path;
};

inline constexpr std::array<std::string_view, 3> kLogLevels = {"info", "warn", "error"};

struct LogEvent {
  static constexpr std::string_view kType = "log";
  double t = 0;
  std::string level = "info";
  std::string msg;
};

inline constexpr std::array<std::string_view, 3> kRunEndStatuses = {"completed", "failed",
                                                                    "cancelled"};

struct RunEndEvent {
  static constexpr std::string_view kType = "run_end";
  double t = 0;
  std::string status = "completed";
  int64_t steps = 0;
  std::optional<std::string> error;  // written when present (status "failed")
};

// One rank's figures for one logged step (an entry of RanksEvent).
struct RankFigures {
  int64_t rank = 0;
  std::string host;
  double step_ms = 0, compute_ms = 0, a2a_ms = 0, allreduce_ms = 0;
  int64_t tokens = 0, peak_bytes = 0;
};

// W > 1: one entry per rank, gathered to rank 0 every logged step.
struct RanksEvent {
  static constexpr std::string_view kType = "ranks";
  double t = 0;
  int64_t step = 0;
  std::vector<RankFigures> ranks;
};

// parallel.adaptive_r "auto": the r chosen at `step`, and the measured ms per step of every r
// tried (r -> ms).
struct AdaptiveREvent {
  static constexpr std::string_view kType = "adaptive_r";
  double t = 0;
  int64_t step = 0;
  int64_t r = 0;
  std::map<int64_t, double> tried;
  std::string reason;
};

// telemetry.capture_every: one MoE layer's input and weights at `step`, complete on disk.
// `path` is relative to the run directory: captures/step-<step>/layer-<layer>.safetensors.
struct CaptureEvent {
  static constexpr std::string_view kType = "capture";
  double t = 0;
  int64_t step = 0, layer = 0;
  std::string path;
  int64_t bytes = 0;   // the file's size
  int64_t tokens = 0;  // rows of its `input`
};

using TelemetryEvent =
    std::variant<RunStartEvent, StepEvent, ExpertLoadEvent, PhasesEvent, EvalEvent, CheckpointEvent,
                 LogEvent, RunEndEvent, RanksEvent, AdaptiveREvent, CaptureEvent>;

// The event as a JSON object with "v", "type", "t" and its fields.
nlohmann::json to_json(const RunStartEvent& e);
nlohmann::json to_json(const StepEvent& e);
nlohmann::json to_json(const ExpertLoadEvent& e);
nlohmann::json to_json(const PhasesEvent& e);
nlohmann::json to_json(const EvalEvent& e);
nlohmann::json to_json(const CheckpointEvent& e);
nlohmann::json to_json(const LogEvent& e);
nlohmann::json to_json(const RunEndEvent& e);
nlohmann::json to_json(const RanksEvent& e);
nlohmann::json to_json(const AdaptiveREvent& e);
nlohmann::json to_json(const CaptureEvent& e);
nlohmann::json to_json(const TelemetryEvent& e);

// "step", "run_end", ...
std::string_view event_type(const TelemetryEvent& e);
// The event's "t".
double event_time(const TelemetryEvent& e);

}  // namespace moe::protocol

// Whoever builds events usually writes them: bring in TelemetryWriter too.
#include "protocol/telemetry_writer.h"

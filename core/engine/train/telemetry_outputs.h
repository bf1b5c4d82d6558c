#pragma once
// What the engine derives from its own telemetry events, as they are written (so the outputs
// and metrics.jsonl can never disagree): TensorBoard event files (telemetry.tensorboard, rank 0)
// and the trace's counters (telemetry.trace): tokens/s and the share of dropped choices, per MoE
// layer and over all of them.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "protocol/telemetry_writer.h"
#include "trace/trace_recorder.h"

namespace moe::tensorboard {
class TensorBoardWriter;
}  // namespace moe::tensorboard

namespace moe::train {

class TelemetryOutputs {
 public:
  // Listens to `telemetry` until destroyed. `tensorboard_dir`: where the events file goes ("" for
  // none), named after `host`; `trace`: the recorder that gets the counters (null for none).
  // std::runtime_error when the events file cannot be created.
  TelemetryOutputs(protocol::TelemetryWriter& telemetry, const std::string& tensorboard_dir,
                   const std::string& host, trace::TraceRecorder* trace);
  ~TelemetryOutputs();
  TelemetryOutputs(const TelemetryOutputs&) = delete;
  TelemetryOutputs& operator=(const TelemetryOutputs&) = delete;

  // "" while the events file has every record; else why it stopped being written (it is not
  // written after a failure, and training goes on).
  std::string error() const;

 private:
  void on_event(const nlohmann::json& event);
  void record_tensorboard(const nlohmann::json& event);
  void record_counters(const nlohmann::json& event);

  protocol::TelemetryWriter& telemetry_;
  std::unique_ptr<tensorboard::TensorBoardWriter> tensorboard_;
  trace::TraceRecorder* trace_;
  // Choices and dropped choices of the step whose expert_load events are arriving.
  int64_t load_step_ = -1;
  double load_choices_ = 0, load_dropped_ = 0;
  mutable std::mutex mutex_;
  std::string error_;
};

}  // namespace moe::train

#include "train/telemetry_outputs.h"

#include <nlohmann/json.hpp>

#include "tensorboard/tensorboard_scalars.h"
#include "tensorboard/tensorboard_writer.h"
#include "train/input_error.h"

namespace moe::train {

namespace {

double sum_of(const nlohmann::json& array) {
  double sum = 0;
  if (!array.is_array()) return sum;
  for (const auto& v : array) {
    if (v.is_number()) sum += v.get<double>();
  }
  return sum;
}

}  // namespace

TelemetryOutputs::TelemetryOutputs(protocol::TelemetryWriter& telemetry,
                                   const std::string& tensorboard_dir, const std::string& host,
                                   trace::TraceRecorder* trace)
    : telemetry_(telemetry), trace_(trace) {
  if (!tensorboard_dir.empty()) {
#ifdef MOE_NO_TENSORBOARD
    (void)host;
    // Only a device-checks build (core/tensorboard/CMakeLists.txt) may lack protobuf.
    throw train::InputError(
        "/telemetry/tensorboard: this build of moe-train has no TensorBoard writer (it was "
        "configured without protobuf)");
#else
    tensorboard_ = std::make_unique<tensorboard::TensorBoardWriter>(tensorboard_dir, host);
#endif
  }
  if (tensorboard_ || trace_) {
    telemetry_.set_listener([this](const nlohmann::json& event) { on_event(event); });
  }
}

TelemetryOutputs::~TelemetryOutputs() {
  telemetry_.set_listener({});
}

std::string TelemetryOutputs::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void TelemetryOutputs::on_event(const nlohmann::json& event) {
  // Called by the writer for each line: nothing may escape into the training thread.
  try {
    if (trace_) record_counters(event);
  } catch (const std::exception&) {
    // A malformed event gives no counter; the trace is a view, not the record.
  }
  if (!tensorboard_) return;
  try {
    record_tensorboard(event);
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = std::string("TensorBoard events no longer written: ") + e.what();
    tensorboard_.reset();
  }
}

void TelemetryOutputs::record_tensorboard(const nlohmann::json& event) {
#ifndef MOE_NO_TENSORBOARD
  auto scalars = tensorboard::tensorboard_scalars(event);
  if (!scalars) return;
  tensorboard_->write(*scalars, tensorboard::unix_seconds_now());
  // Each event's record reaches the file at once, so `tensorboard --logdir` sees a live run.
  tensorboard_->flush();
#else
  (void)event;
#endif
}

void TelemetryOutputs::record_counters(const nlohmann::json& event) {
  const std::string type = event.value("type", std::string());
  if (type == "step") {
    const auto step = event.at("step").get<int64_t>();
    const auto& rate = event.at("tokens_per_s");
    if (rate.is_number()) trace_->counter("throughput", step, "tokens_per_s", rate.get<double>());
  } else if (type == "expert_load") {
    const auto step = event.at("step").get<int64_t>();
    if (step != load_step_) {
      load_step_ = step;
      load_choices_ = load_dropped_ = 0;
    }
    const double choices = sum_of(event.at("counts"));
    load_choices_ += choices;
    load_dropped_ += choices - sum_of(event.at("kept"));
    const auto& share = event.at("dropped_frac");
    if (share.is_number()) {
      trace_->counter("dropped_share", step, "layer" + std::to_string(event.at("layer").get<int>()),
                      share.get<double>());
    }
    if (load_choices_ > 0) {
      trace_->counter("dropped_share", step, "all", load_dropped_ / load_choices_);
    }
  }
}

}  // namespace moe::train

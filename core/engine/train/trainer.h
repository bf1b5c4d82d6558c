#pragma once
// `moe-train run`: trains config.model on config.data for train.steps optimizer steps, streaming
// telemetry (docs/PROTOCOL.md, "Telemetry"), evaluating, checkpointing, and stopping cleanly on
// SIGINT/SIGTERM.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "data/batch_source.h"
#include "dist/process_group.h"
#include "model/model.h"
#include "protocol/run_config.h"
#include "protocol/telemetry_writer.h"
#include "trace/phase_timer.h"
#include "trace/trace_recorder.h"
#include "train/adaptive_r.h"
#include "train/gradient_sync.h"
#include "train/layer_capture.h"
#include "train/loss_scaler.h"
#include "train/model_distribution.h"
#include "train/optimizer.h"
#include "train/run_directory.h"
#include "train/run_log.h"
#include "train/step_totals.h"
#include "train/telemetry_outputs.h"

namespace moe::train {

struct TrainerOptions {
  std::string engine_version;
  std::optional<std::string> resume_from;  // a checkpoint step directory
  std::function<void()> on_resumed;        // called once resume_from has been loaded, if set
  int64_t restart = 0;                     // moe-train launch's MOE_RESTART (run_start's restart)
  // Sets the new model's weights (run --init-from) before it is moved and distributed; not called
  // when resuming from a checkpoint.
  std::function<void(torch::nn::Module&)> init_weights;
};

// The ranks of one run: rank 0 writes the telemetry and the checkpoints, every rank trains its
// slice of each global batch (docs/ROUTING.md, "Expert parallelism").

class Trainer {
 public:
  // Builds the model, optimizer and data source (data::DataError for bad data files).
  Trainer(const protocol::RunConfig& config, RunDirectory dir, protocol::TelemetryWriter& telemetry,
          RunLog& log, dist::ProcessGroup& group, TrainerOptions options);

  // Trains to the end. Returns the exit status: 0 completed, 1 failed (non-finite loss, runtime
  // error, a line lost from metrics.jsonl or stderr.log: run_end "failed"), 2 when the checkpoint
  // to resume from is damaged or does not fit the config (run_end "failed" naming the file),
  // 128 + signal when cancelled (run_end "cancelled").
  int run();

 private:
  void emit_run_start();
  void resume(const std::string& step_dir);
  void train_step(int64_t step);
  // The step's task, aux and z losses -> their means over micro-batches and the group, into
  // totals; throws when the loss they form is not finite (on every rank alike).
  void reduce_losses(StepTotals& totals, int64_t step);
  void emit_step_events(int64_t step, const StepTotals& totals, double grad_norm, double lr,
                        double step_ms, trace::PhaseTimes& phases);
  void emit_phases(int64_t step, double step_ms, const trace::PhaseTimes& phases);
  void emit_ranks(int64_t step, int64_t tokens, double step_ms, const trace::PhaseTimes& phases);
  // The signal that stops the run, agreed by every rank (the highest any rank saw), or 0; throws
  // on every rank when one rank's outputs failed (check_outputs).
  int agreed_stop();
  // A checkpoint of the last step, run_end "cancelled"; returns the exit status 128 + sig.
  int stop_for(int sig);
  // Throws InputError when the ranks resumed from different steps.
  void check_same_step(const std::string& step_dir);
  void start_adaptive_r();  // parallel.adaptive_r "auto" with split experts
  void choose_adaptive_r(int64_t step);
  void record_adaptive_r(int64_t step, double step_ms);
  void maybe_evaluate(int64_t step, bool last);
  void save(int64_t step);
  void show_progress(int64_t step, double loss, double tokens_per_s, double step_ms);
  // Throws when metrics.jsonl or stderr.log lost a line (disk full, removed...), naming the file.
  void check_outputs();
  void finish(const std::string& status, int64_t steps, const std::string& error = "");
  void warn_outputs_error();
  // Tutel's helloworld figure for a step of `step_ms`; nullopt for other models.
  std::optional<double> tutel_tflops(int64_t tokens, double step_ms) const;

  protocol::RunConfig config_;
  RunDirectory dir_;
  protocol::TelemetryWriter& telemetry_;
  RunLog& log_;
  TrainerOptions options_;
  dist::ProcessGroup& group_;
  std::shared_ptr<model::ModelImpl> model_;
  model::ParameterCounts counts_;  // of the whole model, whatever this rank holds
  DistributedModel parts_;
  std::unique_ptr<GradientSync> gradients_;
  std::optional<AdaptiveRChooser> adaptive_r_;
  std::vector<std::string> hosts_;
  std::unique_ptr<Optimizer> optimizer_;
  std::unique_ptr<data::BatchSource> data_;  // batches arrive on device_
  at::Device device_ = at::kCPU;             // where the model computes (runtime/device.h)
  std::unique_ptr<trace::TraceRecorder> trace_;
  std::unique_ptr<TelemetryOutputs> outputs_;  // TensorBoard files, trace counters
  bool outputs_warned_ = false;                // outputs_->error() logged
  bool amp_ = false;
  std::optional<LossScaler> scaler_;       // train.dtype "float16" only
  std::unique_ptr<LayerCapture> capture_;  // telemetry.capture_every > 0 only

  int64_t step_ = 0;         // last completed optimizer step
  int64_t saved_step_ = -1;  // step of the newest checkpoint
  double mean_step_ms_ = 0;  // smoothed, for the ETA
};

}  // namespace moe::train

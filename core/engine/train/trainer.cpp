#include "train/trainer.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <sstream>

#include <torch/version.h>

#include "data/on_device.h"
#include "data/rank_slice.h"
#include "moe_kernels/backend.h"
#include "runtime/device.h"
#include "runtime/error_text.h"
#include "runtime/thread_pools.h"
#include "trace/run_trace.h"
#include "train/amp.h"
#include "train/checkpoint.h"
#include "train/data_progress.h"
#include "train/engine_support.h"
#include "train/evaluation.h"
#include "train/input_error.h"
#include "train/lr_schedule.h"
#include "train/model_state.h"
#include "train/rank_agreement.h"
#include "train/rank_figures.h"
#include "train/rng_state.h"
#include "train/stop_signal.h"

namespace moe::train {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A loss or gradient that is NaN or infinite: the run stops and says where.
struct NonFinite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// metrics.jsonl or stderr.log lost a line: the run stops rather than go on with a record that no
// longer says what happened.
struct OutputLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
}

std::string describe(const layer::ExpertPartition& p) {
  if (p.shards == 1) return std::to_string(p.local_experts) + " experts per rank (expert parallel)";
  const std::string s = std::to_string(p.shards);
  return "each expert sharded over " + s + " ranks (1/" + s + " of its hidden units each)";
}

// Built by appending: GCC 12 in C++20 mode flags string::insert here as an overflow (a false
// -Wstringop-overflow).
std::string with_thousands(int64_t n) {
  const std::string digits = std::to_string(n);
  const size_t sign = n < 0 ? 1 : 0;
  std::string s = digits.substr(0, sign);
  for (size_t i = sign; i < digits.size(); ++i) {
    if (i > sign && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

}  // namespace

Trainer::Trainer(const protocol::RunConfig& config, RunDirectory dir,
                 protocol::TelemetryWriter& telemetry, RunLog& log, dist::ProcessGroup& group,
                 TrainerOptions options)
    : config_(config),
      dir_(std::move(dir)),
      telemetry_(telemetry),
      log_(log),
      options_(std::move(options)),
      group_(group) {
  const int threads = resolved_threads(config_, group_.local_world_size());
  at::set_num_threads(threads);
  // OpenBLAS keeps its own count (every core by default): n local ranks would each run their
  // GEMMs on every core, n times more threads than cores (docs/BENCHMARKS.md, "Figures the
  // code's choices rest on").
  runtime::set_blas_num_threads(threads);
  kernels::cpu_backend().set_threads(threads);
  // Every rank builds the whole model from the same seed, then keeps its own experts: the
  // weights are those of a single process, whatever the number of ranks.
  torch::manual_seed(static_cast<uint64_t>(config_.seed));
  model_ = model::make_model(config_);
  if (options_.init_weights && !options_.resume_from) options_.init_weights(*model_);
  device_ = runtime::compute_device(resolved_device(config_), group_.local_rank());
  model_->to(device_);
  model_->train();
  counts_ = model_->parameter_counts();
  parts_ = distribute_model(*model_, group_, config_.parallel);
  gradients_ =
      std::make_unique<GradientSync>(group_, parts_.replicated, parts_.split, parts_.split_copies);
  optimizer_ = make_optimizer(config_.train, parts_.parameters);
  data_ = data::on_device(
      data::rank_slice(data::prefetch(data::make_batch_source(config_, device_,
                                                              run_data_options(dir_.path, log_)),
                                      config_.train.batch_size),
                       group_.rank(), group_.world_size()),
      device_);
  hosts_ = gather_hosts(group_, host_name());
  group_.name_hosts(hosts_);
  amp_ = config_.train.amp && config_.train.dtype == protocol::Dtype::Float32;
  if (config_.train.dtype == protocol::Dtype::Float16) scaler_.emplace();
  if (config_.telemetry.capture_every > 0) {
    capture_ = std::make_unique<LayerCapture>(config_.telemetry, dir_.path, *model_, parts_.shards,
                                              group_, telemetry_, log_);
  }
  if (config_.telemetry.trace) trace_ = std::make_unique<trace::TraceRecorder>();
  const bool tensorboard = config_.telemetry.tensorboard && group_.rank() == 0;
  outputs_ =
      std::make_unique<TelemetryOutputs>(telemetry_, tensorboard ? dir_.path + "/tensorboard" : "",
                                         hosts_[group_.rank()], trace_.get());
}

void Trainer::emit_run_start() {
  protocol::RunStartEvent e;
  e.run_id = dir_.run_id;
  e.config = protocol::to_json(config_);
  e.world_size = group_.world_size();
  e.device = resolved_device(config_);
  e.host = host_name();
  e.engine_version = options_.engine_version;
  e.torch_version = TORCH_VERSION;
  const model::ParameterCounts& counts = counts_;
  e.expert_parameters = counts.experts;
  e.dense_parameters = counts.dense;
  e.restart = options_.restart;
  if (options_.resume_from) e.resumed_step = checkpoint_step(*options_.resume_from);
  telemetry_.write_event(e);
  log_.info("run directory " + dir_.path);
  const size_t layers = model_->moe_layers().size();
  log_.info("model " + to_string(config_.model.kind) + ": " + with_thousands(counts.total()) +
            " parameters (" + with_thousands(counts.experts) + " in experts, " +
            with_thousands(counts.dense) + " dense), " + std::to_string(layers) +
            (layers == 1 ? " MoE layer, " : " MoE layers, ") + to_string(config_.train.dtype) +
            (amp_ ? " with bfloat16 autocast" : "") +
            (scaler_ ? " with dynamic loss scaling" : ""));
  log_.info("data: " + data_->describe());
  if (!group_.is_single()) {
    log_.info("rank " + std::to_string(group_.rank()) + " of " +
              std::to_string(group_.world_size()) + " on " + hosts_[group_.rank()] + " (pid " +
              std::to_string(getpid()) + ")");
    log_.info("Gloo transport on " + group_.gloo_address());
    const auto& placement = model_->moe_layers().front()->placement();
    log_.info(std::to_string(group_.world_size()) + " ranks over " + group_.backend_name() +
              (placement.sharded ? ", " + describe(placement.partition)
                                 : ", experts replicated (data parallel)"));
  }
  if (config_.train.amp && !amp_) log_.warn("train.amp applies to float32 models; ignored");
}

void Trainer::resume(const std::string& step_dir) {
  // Every part that cannot be read or does not fit this run's model is bad input, named by file.
  const auto part = [&](const char* file, auto&& load) {
    try {
      load();
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      const std::string text = runtime::error_text(e);
      // load_checkpoint's own errors already start with the file's path.
      throw InputError(
          text.find(step_dir) != std::string::npos ? text : step_dir + "/" + file + ": " + text);
    }
  };
  // Every rank reads the same directory; one that cannot (a stale or damaged copy) stops all.
  on_every_rank(group_, "loading " + step_dir, [&] {
    Checkpoint c;
    part(kCheckpointStateFile, [&] { c = load_checkpoint(step_dir); });
    part(kCheckpointModelFile, [&] { load_model_tensors(*model_, parts_.shards.slice(c.model)); });
    part(kCheckpointOptimizerFile,
         [&] { optimizer_->load_state(parts_.shards.slice(c.optimizer)); });
    part(kCheckpointStateFile, [&] {
      const auto field = [&](const char* key) -> const nlohmann::json& {
        auto it = c.state.find(key);
        if (it == c.state.end()) throw std::runtime_error(std::string("no \"") + key + "\"");
        return *it;
      };
      data_->seek(field("data_position"));
      restore_run_rng(c.state, device_);
      step_ = saved_step_ = field("step").get<int64_t>();
      if (scaler_) scaler_->restore_from(c.state);
    });
  });
  check_same_step(step_dir);
  log_.info("resumed from " + step_dir + " (step " + std::to_string(step_) + ")");
  if (options_.on_resumed) options_.on_resumed();
}

// Every rank must go on from the step it loaded: a copy of the checkpoint that differs on one
// node would otherwise train diverging weights without a word.
void Trainer::check_same_step(const std::string& step_dir) {
  if (group_.is_single()) return;
  auto steps = at::tensor({step_, -step_}, at::kLong);
  group_.all_reduce_max(steps);
  const int64_t highest = steps[0].item<int64_t>(), lowest = -steps[1].item<int64_t>();
  if (highest == lowest) return;
  throw InputError(step_dir + ": the ranks loaded different steps (" + std::to_string(lowest) +
                   " to " + std::to_string(highest) + "; this rank " + std::to_string(step_) +
                   "): its files differ between nodes");
}

void Trainer::train_step(int64_t step) {
  trace::TraceSpan span("step");
  trace::PhaseTimes phases(device_);
  trace::ActivePhaseTimes active(&phases);
  const auto start = Clock::now();
  choose_adaptive_r(step);
  const protocol::TrainConfig& t = config_.train;
  optimizer_->zero_grad();
  StepTotals totals;
  for (int64_t micro = 0; micro < t.grad_accum; ++micro) {
    data::Batch batch;
    {
      trace::TraceSpan wait("data_wait");
      batch = data_->next_train(t.batch_size);
    }
    model::ModelOutput out;
    {
      trace::TraceSpan forward("forward");
      AutocastScope autocast(amp_, device_);
      out = model_->forward(batch);
    }
    at::Tensor loss = out.task_loss;
    if (t.aux_loss_weight > 0) loss = loss + t.aux_loss_weight * out.aux_loss;
    if (t.z_loss_weight > 0) loss = loss + t.z_loss_weight * out.z_loss;
    {
      trace::ScopedPhase backward("backward");
      if (micro == t.grad_accum - 1) gradients_->arm();
      if (t.grad_accum > 1) loss = loss / static_cast<double>(t.grad_accum);
      (scaler_ ? scaler_->scale(loss) : loss).backward();
    }
    totals.add(out);
  }
  {
    trace::ScopedPhase allreduce("allreduce");
    gradients_->average();
  }
  reduce_losses(totals, step);
  double grad_norm, lr;
  {
    trace::ScopedPhase optimizer("optimizer");
    // float16: true gradients for clipping; an overflow skips the update, not the step number.
    const bool update =
        !scaler_ || unscale_for_step(*scaler_, parts_.parameters, group_, log_, step);
    grad_norm = update ? gradients_->clip_norm(t.clip_grad_norm) : 0.0;
    if (!std::isfinite(grad_norm)) {
      throw NonFinite("gradient norm is not finite at step " + std::to_string(step));
    }
    lr = learning_rate(t, step);
    if (update) optimizer_->step(lr);
    auto layers = model_->moe_layers();
    for (size_t i = 0; i < layers.size(); ++i) {
      // The telemetry reports the bias this step routed with, not the one the next step will.
      if (layers[i]->config().bias_balancing.enabled)
        totals.keep_selection_bias(i, layers[i]->selection_bias());
      layers[i]->update_selection_bias();
    }
  }
  const double step_ms = ms_since(start);
  step_ = step;
  record_adaptive_r(step, step_ms);
  emit_step_events(step, totals, grad_norm, lr, step_ms, phases);
  warn_outputs_error();
}

// Said once, as soon as a step finds it: a run killed later would otherwise never say it.
void Trainer::warn_outputs_error() {
  if (outputs_warned_ || outputs_->error().empty()) return;
  outputs_warned_ = true;
  log_.warn(outputs_->error());
}

// The step's losses, averaged over micro-batches and ranks on the device and read once; a
// non-finite total stops every rank alike before the update (they all see the same sums).
void Trainer::reduce_losses(StepTotals& totals, int64_t step) {
  const protocol::TrainConfig& t = config_.train;
  at::Tensor parts = totals.mean_losses();
  if (!group_.is_single()) {
    trace::ScopedPhase allreduce("allreduce");
    group_.all_reduce_sum(parts);
    parts /= static_cast<double>(group_.world_size());
  }
  parts = parts.cpu();
  const double* v = parts.data_ptr<double>();
  const double task = v[0], aux = v[1], z = v[2];
  // The loss the parts form (a weight of 0 leaves its term out).
  const double total = task + (t.aux_loss_weight > 0 ? t.aux_loss_weight * aux : 0.0) +
                       (t.z_loss_weight > 0 ? t.z_loss_weight * z : 0.0);
  if (!std::isfinite(total)) {
    std::ostringstream msg;
    msg << "loss is not finite at step " << step << " (task " << task << ", aux " << aux << ", z "
        << z << ")";
    throw NonFinite(msg.str());
  }
  totals.set_losses(task, aux, z);
}

int Trainer::agreed_stop() {
  return agree_on_stop(group_, stop_requested(), "writing its outputs",
                       [this] { check_outputs(); });
}

int Trainer::stop_for(int sig) {
  save(step_);
  log_.info("stopped by signal " + std::to_string(sig) + " after step " + std::to_string(step_));
  finish("cancelled", step_);
  return 128 + sig;
}

void Trainer::maybe_evaluate(int64_t step, bool last) {
  const int64_t every = config_.train.eval_every;
  if (every <= 0 || (step % every != 0 && !last)) return;
  auto result =
      evaluate(*model_, *data_, config_.train.batch_size, config_.train.eval_batches, group_);
  if (!result) return;
  protocol::EvalEvent e;
  e.step = step;
  e.loss = result->loss;
  e.accuracy = result->accuracy;
  telemetry_.write_event(e);
  std::string msg =
      "eval at step " + std::to_string(step) + ": loss " + std::to_string(result->loss);
  if (result->accuracy) msg += ", accuracy " + std::to_string(*result->accuracy);
  log_.info(msg + " (" + std::to_string(result->samples) + " samples)");
}

void Trainer::save(int64_t step) {
  if (step == saved_step_ || step == 0) return;
  trace::TraceSpan span("checkpoint");
  // Every rank sends its experts; rank 0 writes the single-process layout.
  Checkpoint c;
  c.model = parts_.shards.gather(model_tensors(*model_), group_);
  c.optimizer = parts_.shards.gather(optimizer_->state(), group_);
  saved_step_ = step;
  std::string path;
  // Only rank 0 writes: a full disk there stops every rank at once.
  on_every_rank(group_, "writing the checkpoint of step " + std::to_string(step), [&] {
    if (group_.rank() != 0) return;
    c.state = {{"data_position", data_->position()}, {"run_id", dir_.run_id}};
    save_run_rng(c.state, device_);
    if (scaler_) scaler_->save_to(c.state);
    path = save_checkpoint(dir_.checkpoints(), step, c, config_.train.keep_checkpoints);
  });
  if (group_.rank() == 0) telemetry_.write_event(protocol::CheckpointEvent{0, step, path});
}

void Trainer::check_outputs() {
  std::string lost = telemetry_.file_error();
  if (lost.empty()) lost = log_.file_error();
  if (!lost.empty()) throw OutputLost(lost);
}

void Trainer::finish(const std::string& status, int64_t steps, const std::string& error) {
  log_.end_progress();
  if (trace_) {
    try {
      const bool agree = status != "failed";  // every rank ends here at the same step
      for (const auto& w :
           trace::write_run_trace(*trace_, dir_.path, group_, hosts_[group_.rank()], agree))
        log_.warn(w);
    } catch (const std::exception& e) {
      log_.warn(std::string("trace not written: ") + e.what());
    }
  }
  warn_outputs_error();
  protocol::RunEndEvent e;
  e.status = status;
  e.steps = steps;
  if (!error.empty()) e.error = error;
  telemetry_.write_event(e);
}

int Trainer::run() {
  std::optional<trace::ActiveTrace> tracing;
  if (trace_) {
    tracing.emplace(trace_.get());
    trace_->name_thread("trainer");
  }
  emit_run_start();
  try {
    on_every_rank(group_, "opening its outputs", [this] { check_outputs(); });
    if (options_.resume_from) resume(*options_.resume_from);
    start_adaptive_r();
    const protocol::TrainConfig& t = config_.train;
    for (int64_t step = step_ + 1; step <= t.steps; ++step) {
      if (int sig = agreed_stop()) return stop_for(sig);
      if (capture_) capture_->before_step(step);
      train_step(step);
      if (capture_) capture_->after_step(step);
      maybe_evaluate(step, step == t.steps);
      if (t.checkpoint_every > 0 && (step % t.checkpoint_every == 0 || step == t.steps)) {
        // Outputs first: a checkpoint past the last recorded step would hide the loss.
        if (int sig = agreed_stop()) return stop_for(sig);
        save(step);
      }
    }
    // Errors that only show when the data reaches the disk (quotas, NFS) fail the run too.
    telemetry_.sync_file();
    log_.sync_file();
    if (agreed_stop() != 0) save(step_);  // a signal during the last step
    finish("completed", step_);
    return 0;
  } catch (const InputError& e) {
    log_.error(e.what());
    finish("failed", step_, e.what());
    return 2;
  } catch (const std::exception& e) {
    log_.error(runtime::error_text(e));
    finish("failed", step_, runtime::error_text(e));
    return 1;
  }
}

}  // namespace moe::train

#include "train/trainer.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <sstream>

#include <torch/version.h>

#include "moe_kernels/threading.h"
#include "protocol/expert_flops.h"
#include "runtime/error_text.h"
#include "train/amp.h"
#include "train/checkpoint.h"
#include "train/engine_support.h"
#include "train/evaluation.h"
#include "train/grad_clip.h"
#include "train/input_error.h"
#include "train/lr_schedule.h"
#include "train/model_state.h"
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

std::string with_thousands(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(i, ",");
  return s;
}

}  // namespace

Trainer::Trainer(const protocol::RunConfig& config, RunDirectory dir,
                 protocol::TelemetryWriter& telemetry, RunLog& log, TrainerOptions options)
    : config_(config),
      dir_(std::move(dir)),
      telemetry_(telemetry),
      log_(log),
      options_(std::move(options)) {
  const int threads = resolved_threads(config_);
  at::set_num_threads(threads);
  kernels::set_num_threads(threads);
  torch::manual_seed(static_cast<uint64_t>(config_.seed));
  model_ = model::make_model(config_);
  model_->train();
  std::vector<NamedParameter> named;
  for (const auto& p : model_->named_parameters()) {
    if (!p.value().requires_grad()) continue;
    named.push_back({p.key(), p.value()});
    params_.push_back(p.value());
  }
  optimizer_ = make_optimizer(config_.train, std::move(named));
  data_ = data::prefetch(data::make_batch_source(config_), config_.train.batch_size);
  amp_ = config_.train.amp && config_.train.dtype == "float32";
  if (config_.telemetry.trace) trace_ = std::make_unique<TraceRecorder>();
}

void Trainer::emit_run_start() {
  protocol::RunStartEvent e;
  e.run_id = dir_.run_id;
  e.config = protocol::to_json(config_);
  e.world_size = 1;
  e.device = resolved_device(config_);
  e.host = host_name();
  e.engine_version = options_.engine_version;
  e.torch_version = TORCH_VERSION;
  const model::ParameterCounts counts = model_->parameter_counts();
  e.expert_parameters = counts.experts;
  e.dense_parameters = counts.dense;
  telemetry_.write_event(e);
  log_.info("run directory " + dir_.path);
  const size_t layers = model_->moe_layers().size();
  log_.info("model " + config_.model.kind + ": " + with_thousands(counts.total()) +
            " parameters (" + with_thousands(counts.experts) + " in experts, " +
            with_thousands(counts.dense) + " dense), " + std::to_string(layers) +
            (layers == 1 ? " MoE layer, " : " MoE layers, ") + config_.train.dtype +
            (amp_ ? " with bfloat16 autocast" : ""));
  log_.info("data: " + data_->describe());
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
      const std::string text = error_text(e);
      // load_checkpoint's own errors already start with the file's path.
      throw InputError(
          text.find(step_dir) != std::string::npos ? text : step_dir + "/" + file + ": " + text);
    }
  };
  Checkpoint c;
  part(kCheckpointStateFile, [&] { c = load_checkpoint(step_dir); });
  part(kCheckpointModelFile, [&] { load_model_tensors(*model_, c.model); });
  part(kCheckpointOptimizerFile, [&] { optimizer_->load_state(c.optimizer); });
  part(kCheckpointStateFile, [&] {
    const auto field = [&](const char* key) -> const nlohmann::json& {
      auto it = c.state.find(key);
      if (it == c.state.end()) throw std::runtime_error(std::string("no \"") + key + "\"");
      return *it;
    };
    data_->seek(field("data_position"));
    restore_rng_state(field("rng").get<std::string>());
    step_ = saved_step_ = field("step").get<int64_t>();
  });
  log_.info("resumed from " + step_dir + " (step " + std::to_string(step_) + ")");
  if (options_.on_resumed) options_.on_resumed();
}

void Trainer::train_step(int64_t step) {
  TraceSpan span("step");
  PhaseTimes phases;
  ActivePhaseTimes active(&phases);
  const auto start = Clock::now();
  const protocol::TrainConfig& t = config_.train;
  optimizer_->zero_grad();
  StepTotals totals;
  for (int64_t micro = 0; micro < t.grad_accum; ++micro) {
    data::Batch batch;
    {
      TraceSpan wait("data_wait");
      batch = data_->next_train(t.batch_size);
    }
    model::ModelOutput out;
    {
      TraceSpan forward("forward");
      AutocastScope autocast(amp_);
      out = model_->forward(batch);
    }
    at::Tensor loss = out.task_loss;
    if (t.aux_loss_weight > 0) loss = loss + t.aux_loss_weight * out.aux_loss;
    if (t.z_loss_weight > 0) loss = loss + t.z_loss_weight * out.z_loss;
    const double task = out.task_loss.item<double>(), aux = out.aux_loss.item<double>(),
                 z = out.z_loss.item<double>();
    // The loss just formed, from the parts already read (a weight of 0 leaves its term out).
    const double total = task + (t.aux_loss_weight > 0 ? t.aux_loss_weight * aux : 0.0) +
                         (t.z_loss_weight > 0 ? t.z_loss_weight * z : 0.0);
    if (!std::isfinite(total)) {
      std::ostringstream msg;
      msg << "loss is not finite at step " << step << " (task " << task << ", aux " << aux << ", z "
          << z << ")";
      throw NonFinite(msg.str());
    }
    {
      ScopedPhase backward("backward");
      (t.grad_accum > 1 ? loss / static_cast<double>(t.grad_accum) : loss).backward();
    }
    totals.add(out, task, aux, z);
  }
  double grad_norm, lr;
  {
    ScopedPhase optimizer("optimizer");
    grad_norm = clip_grad_norm(params_, t.clip_grad_norm);
    if (!std::isfinite(grad_norm)) {
      throw NonFinite("gradient norm is not finite at step " + std::to_string(step));
    }
    lr = learning_rate(t, step);
    optimizer_->step(lr);
    for (auto& layer : model_->moe_layers()) layer->update_selection_bias();
  }
  const double step_ms = ms_since(start);
  step_ = step;
  emit_step_events(step, totals, grad_norm, lr, step_ms, phases);
}

void Trainer::emit_step_events(int64_t step, const StepTotals& totals, double grad_norm, double lr,
                               double step_ms, const PhaseTimes& phases) {
  const double tokens_per_s = totals.tokens() / (step_ms / 1000.0);
  const double loss = totals.task_loss() + config_.train.aux_loss_weight * totals.aux_loss() +
                      config_.train.z_loss_weight * totals.z_loss();
  mean_step_ms_ = mean_step_ms_ == 0 ? step_ms : 0.9 * mean_step_ms_ + 0.1 * step_ms;
  show_progress(step, loss, tokens_per_s, step_ms);
  const protocol::TelemetryConfig& tc = config_.telemetry;
  if (step % tc.every != 0 && step != config_.train.steps) return;

  protocol::StepEvent e;
  e.step = step;
  e.loss = loss;
  e.task_loss = totals.task_loss();
  e.aux_loss = totals.aux_loss();
  e.z_loss = totals.z_loss();
  e.lr = lr;
  e.grad_norm = grad_norm;
  e.tokens = totals.tokens();
  e.tokens_per_s = tokens_per_s;
  e.step_ms = step_ms;
  e.tflops = tutel_tflops(totals.tokens(), step_ms);
  telemetry_.write_event(e);
  if (tc.expert_load) {
    for (size_t layer = 0; layer < totals.layers(); ++layer) {
      telemetry_.write_event(totals.expert_load(step, static_cast<int64_t>(layer)));
    }
  }
  if (tc.phases) {
    protocol::PhasesEvent p;
    p.step = step;
    double accounted = 0;
    for (std::string_view name : protocol::kPhaseNames) {
      if (name == "other") continue;
      auto it = phases.ms().find(std::string(name));
      const double ms = it == phases.ms().end() ? 0.0 : it->second;
      p.ms[std::string(name)] = ms;
      accounted += ms;
    }
    p.ms["other"] = std::max(0.0, step_ms - accounted);
    telemetry_.write_event(p);
  }
}

std::optional<double> Trainer::tutel_tflops(int64_t tokens, double step_ms) const {
  if (config_.model.kind != "helloworld") return std::nullopt;
  const double k = static_cast<double>(std::min(config_.moe.top_k, config_.moe.experts));
  const double flops = protocol::expert_train_flops(static_cast<double>(tokens), k,
                                                    config_.model.dim, config_.moe.hidden);
  return flops / (step_ms / 1000.0) / 1e12;
}

void Trainer::show_progress(int64_t step, double loss, double tokens_per_s, double step_ms) {
  if (!log_.shows_progress()) return;
  const double eta_s = (config_.train.steps - step) * mean_step_ms_ / 1000.0;
  char line[256];
  std::snprintf(line, sizeof line, "step %lld/%lld  loss %.4f  %.0f tok/s  %.0f ms/step  ETA %s",
                static_cast<long long>(step), static_cast<long long>(config_.train.steps), loss,
                tokens_per_s, step_ms, format_duration(eta_s).c_str());
  log_.progress(line, step == config_.train.steps);
}

void Trainer::maybe_evaluate(int64_t step, bool last) {
  const int64_t every = config_.train.eval_every;
  if (every <= 0 || (step % every != 0 && !last)) return;
  auto result = evaluate(*model_, *data_, config_.train.batch_size, config_.train.eval_batches);
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
  TraceSpan span("checkpoint");
  Checkpoint c;
  c.model = model_tensors(*model_);
  c.optimizer = optimizer_->state();
  c.state = {
      {"data_position", data_->position()}, {"rng", save_rng_state()}, {"run_id", dir_.run_id}};
  const std::string path =
      save_checkpoint(dir_.checkpoints(), step, c, config_.train.keep_checkpoints);
  saved_step_ = step;
  telemetry_.write_event(protocol::CheckpointEvent{0, step, path});
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
      trace_->write(dir_.trace());
    } catch (const std::exception& e) {
      log_.warn(std::string("trace not written: ") + e.what());
    }
  }
  protocol::RunEndEvent e;
  e.status = status;
  e.steps = steps;
  if (!error.empty()) e.error = error;
  telemetry_.write_event(e);
}

int Trainer::run() {
  std::optional<ActiveTrace> tracing;
  if (trace_) {
    tracing.emplace(trace_.get());
    trace_->name_thread("trainer");
  }
  emit_run_start();
  try {
    check_outputs();
    if (options_.resume_from) resume(*options_.resume_from);
    const protocol::TrainConfig& t = config_.train;
    for (int64_t step = step_ + 1; step <= t.steps; ++step) {
      if (int sig = stop_requested()) {
        check_outputs();
        save(step_);
        log_.info("stopped by signal " + std::to_string(sig) + " after step " +
                  std::to_string(step_));
        finish("cancelled", step_);
        return 128 + sig;
      }
      train_step(step);
      maybe_evaluate(step, step == t.steps);
      // Before the checkpoint: a checkpoint past the last recorded step would hide the loss.
      check_outputs();
      if (t.checkpoint_every > 0 && (step % t.checkpoint_every == 0 || step == t.steps)) {
        save(step);
      }
    }
    // Errors that only show when the data reaches the disk (quotas, NFS) fail the run too.
    telemetry_.sync_file();
    log_.sync_file();
    check_outputs();
    if (stop_requested() != 0) save(step_);  // a signal during the last step
    finish("completed", step_);
    return 0;
  } catch (const InputError& e) {
    log_.error(e.what());
    finish("failed", step_, e.what());
    return 2;
  } catch (const std::exception& e) {
    log_.error(error_text(e));
    finish("failed", step_, error_text(e));
    return 1;
  }
}

}  // namespace moe::train

// The trainer's reports: the telemetry events of a step (step, expert_load, phases, ranks), the
// progress line, and parallel.adaptive_r "auto"'s trials and decisions.
#include <torch/version.h>

#include "protocol/expert_flops.h"
#include "protocol/parallel_layout.h"
#include "train/rank_figures.h"
#include "train/trainer.h"

namespace moe::train {

void Trainer::emit_step_events(int64_t step, const StepTotals& totals, double grad_norm, double lr,
                               double step_ms, trace::PhaseTimes& phases) {
  // Backward's all-to-all belongs to the a2a phase, not to backward's compute.
  const auto a2a_backward = phases.ms().find("a2a_backward");
  if (a2a_backward != phases.ms().end()) {
    const double ms = a2a_backward->second;
    phases.add("backward", -ms);
    phases.add("a2a", ms);
  }
  const int64_t tokens = totals.tokens() * group_.world_size();  // every rank's slice
  const double tokens_per_s = tokens / (step_ms / 1000.0);
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
  e.tokens = tokens;
  e.tokens_per_s = tokens_per_s;
  e.step_ms = step_ms;
  e.tflops = tutel_tflops(tokens, step_ms);
  telemetry_.write_event(e);
  if (tc.expert_load) {
    for (size_t layer = 0; layer < totals.layers(); ++layer) {
      telemetry_.write_event(totals.expert_load(step, static_cast<int64_t>(layer)));
    }
  }
  if (tc.phases) emit_phases(step, step_ms, phases);
  if (!group_.is_single()) emit_ranks(step, totals.tokens(), step_ms, phases);
}

namespace {

double phase_ms(const trace::PhaseTimes& phases, const std::string& name) {
  auto it = phases.ms().find(name);
  return it == phases.ms().end() ? 0.0 : it->second;
}

}  // namespace

void Trainer::emit_phases(int64_t step, double step_ms, const trace::PhaseTimes& phases) {
  protocol::PhasesEvent p;
  p.step = step;
  double accounted = 0;
  for (std::string_view name : protocol::kPhaseNames) {
    if (name == "other") continue;
    const double ms = phase_ms(phases, std::string(name));
    p.ms[std::string(name)] = ms;
    accounted += ms;
  }
  p.ms["other"] = std::max(0.0, step_ms - accounted);
  telemetry_.write_event(p);
}

void Trainer::emit_ranks(int64_t step, int64_t tokens, double step_ms,
                         const trace::PhaseTimes& phases) {
  protocol::RankFigures mine;
  mine.step_ms = step_ms;
  mine.a2a_ms = phase_ms(phases, "a2a");
  mine.allreduce_ms = phase_ms(phases, "allreduce");
  mine.compute_ms = std::max(0.0, step_ms - mine.a2a_ms - mine.allreduce_ms);
  mine.tokens = tokens;
  mine.peak_bytes = peak_resident_bytes();
  telemetry_.write_event(gather_rank_figures(group_, step, mine, hosts_));
}

void Trainer::start_adaptive_r() {
  const auto& p = config_.parallel;
  if (p.adaptive_r != protocol::kAdaptiveRAuto || parts_.split.empty()) return;
  const auto placement =
      protocol::expert_placement(config_.moe.experts, group_.world_size(), p.expert_parallel);
  adaptive_r_.emplace(protocol::valid_adaptive_r(placement), step_ + 1);
}

void Trainer::choose_adaptive_r(int64_t step) {
  const int64_t fixed = config_.parallel.adaptive_r;
  const int64_t r = adaptive_r_ ? adaptive_r_->r_for(step) : std::max<int64_t>(fixed, 0);
  for (auto& layer : model_->moe_layers()) layer->set_adaptive_r(r);
}

void Trainer::record_adaptive_r(int64_t step, double step_ms) {
  // Between trials the step time decides nothing: no collective for it.
  if (!adaptive_r_ || !adaptive_r_->in_trial(step)) return;
  // The slowest rank's time, so that every rank makes the same choice.
  auto ms = at::tensor({step_ms}, at::kDouble);
  group_.all_reduce_max(ms);
  if (auto decision = adaptive_r_->record(step, ms.item<double>())) {
    log_.info("adaptive_r: " + decision->reason);
    telemetry_.write_event(*decision);
  }
}

std::optional<double> Trainer::tutel_tflops(int64_t tokens, double step_ms) const {
  if (config_.model.kind != protocol::ModelKind::HelloWorld) return std::nullopt;
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

}  // namespace moe::train

#include "bench/layer_benchmark.h"

#include "bad_input.h"
#include "bench/naive_moe.h"
#include "moe/moe_layer.h"
#include "telemetry/phase_timer.h"

namespace moe::train {

namespace {

at::ScalarType bench_dtype(const std::string& name) {
  if (name == "float32") return at::kFloat;
  if (name == "float64") return at::kDouble;
  if (name == "bfloat16") return at::kBFloat16;
  throw BadInput(
      "train.dtype: the CPU layer benchmark supports float32, float64 and bfloat16, got " + name);
}

// Routing variants the naive GShard formulation does not implement.
bool naive_comparable(const protocol::MoeConfig& m) {
  return !m.batch_prioritized_routing && !m.bias_balancing.enabled && m.gate_noise == 0;
}

void clear_grads(MoeLayerImpl& layer, const at::Tensor& x) {
  x.mutable_grad().reset();
  for (auto& p : layer.parameters()) p.mutable_grad().reset();
}

// One forward + backward of the layer; the backward is timed as the phase "backward".
struct TrainStep {
  MoeLayerImpl& layer;
  const at::Tensor& x;
  const at::Tensor& grad_out;
  void operator()() const {
    auto result = layer.forward(x);
    {
      ScopedPhase phase("backward");
      torch::autograd::backward({result.output}, {grad_out});
    }
    clear_grads(layer, x);
  }
};

// Average per-step phase times over a few instrumented steps.
std::map<std::string, double> measure_phases(const TrainStep& step, int steps) {
  PhaseTimes times;
  ActivePhaseTimes active(&times);
  for (int i = 0; i < steps; ++i) step();
  std::map<std::string, double> out;
  for (const auto& [name, ms] : times.ms()) out[name] = ms / steps;
  return out;
}

}  // namespace

double expert_train_flops(int64_t tokens, int64_t top_k, int64_t model_dim, int64_t hidden) {
  return 3.0 * 4.0 * tokens * top_k * model_dim * static_cast<double>(hidden);
}

LayerBenchResult benchmark_layer(const protocol::RunConfig& config,
                                 const LayerBenchOptions& options) {
  const auto dtype = bench_dtype(config.train.dtype);
  torch::manual_seed(config.seed);
  LayerBenchResult r;
  const int64_t M = config.model.dim, H = config.moe.hidden;
  r.tokens = config.train.batch_size * config.model.seq_len;
  r.top_k = std::min(config.moe.top_k, config.moe.experts);

  MoeLayer layer(M, config.moe);
  layer->to(dtype);
  layer->train();
  auto x = at::randn({r.tokens, M}, at::TensorOptions().dtype(dtype)).set_requires_grad(true);
  auto grad_out = at::randn_like(x);
  r.capacity = layer->forward(x).stats.capacity;

  const ExpertGemms gemms({config.moe.experts, r.capacity, M, H, dtype});
  r.ceiling = measure_gemm_ceiling(gemms, options.timing, candidate_thread_configs());
  apply_thread_config(r.ceiling.threads);  // the layer runs under the ceiling's best setting
  {
    torch::NoGradGuard no_grad;
    r.forward_ms = median_ms(options.timing, [&] { layer->forward(x); });
  }
  const TrainStep step{*layer, x, grad_out};
  const auto paired = paired_median_ms(
      options.timing, [&] { gemms.train_step(); }, step);
  r.train_ms = paired.b_ms;
  r.ceiling.train_ms = paired.a_ms;  // re-measured beside the layer
  r.efficiency = paired.a_over_b;
  r.phases_ms = measure_phases(step, std::max(2, options.timing.min_iters / 2));
  const double routing = r.phases_ms["gate"] + r.phases_ms["dispatch"] + r.phases_ms["combine"] +
                         r.phases_ms["dispatch_backward"] + r.phases_ms["combine_backward"];
  r.routing_share = routing / r.train_ms;

  const double flops = expert_train_flops(r.tokens, r.top_k, M, H);
  r.forward_tokens_per_s = r.tokens / (r.forward_ms / 1e3);
  r.train_tokens_per_s = r.tokens / (r.train_ms / 1e3);
  r.train_tflops = flops / (r.train_ms / 1e3) / 1e12;

  if (options.naive) {
    auto naive_step = [&] {
      auto out = naive_moe_forward(*layer, x);
      torch::autograd::backward({out}, {grad_out});
      clear_grads(*layer, x);
    };
    TimingOptions once = options.timing;
    once.min_iters = std::min(once.min_iters, 3);  // the baseline is slow; a few runs suffice
    r.naive_train_ms = median_ms(once, naive_step);
    r.naive_train_tokens_per_s = r.tokens / (r.naive_train_ms / 1e3);
    if (naive_comparable(config.moe)) {
      torch::NoGradGuard no_grad;
      layer->eval();  // no noise either way
      r.naive_max_abs_diff =
          (layer->forward(x).output - naive_moe_forward(*layer, x)).abs().max().item<double>();
      layer->train();
    }
  }
  return r;
}

}  // namespace moe::train

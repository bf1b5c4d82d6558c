#include "bench/layer_benchmark.h"

#include <functional>
#include <vector>

#include "bench/naive_moe.h"
#include "layer/moe_layer.h"
#include "layer/token_dispatcher.h"
#include "model/model.h"
#include "moe_kernels/backend.h"
#include "protocol/expert_flops.h"
#include "runtime/device.h"
#include "trace/phase_timer.h"
#include "train/engine_support.h"
#include "train/input_error.h"

namespace moe::bench {

namespace {

at::ScalarType bench_dtype(protocol::Dtype dtype, const at::Device& device) {
  if (dtype == protocol::Dtype::Float16 && device.is_cuda()) return at::kHalf;
  if (dtype != protocol::Dtype::Float16) return model::torch_dtype(dtype);
  throw train::InputError(
      "train.dtype: the layer benchmark supports float32, float64 and bfloat16 (float16 on "
      "CUDA), got float16");
}

// fn, then a wait for the device: the rounds' host clock then times the device's work.
std::function<void()> synchronized(std::function<void()> fn, const at::Device& device) {
  if (device.is_cpu()) return fn;
  return [fn = std::move(fn), device] {
    fn();
    runtime::synchronize(device);
  };
}

// Routing variants the naive GShard formulation does not implement. Gate noise is fine: the
// outputs are compared in eval mode, where neither adds noise.
bool naive_comparable(const protocol::MoeConfig& m) {
  return !m.batch_prioritized_routing && !m.bias_balancing.enabled;
}

void clear_grads(layer::MoeLayerImpl& layer, const at::Tensor& x) {
  x.mutable_grad().reset();
  for (auto& p : layer.parameters()) p.mutable_grad().reset();
}

// One forward + backward of the layer; the backward is timed as the phase "backward". Each call
// appends the step's phase times to `phases`.
struct TrainStep {
  layer::MoeLayerImpl& layer;
  const at::Tensor& x;
  const at::Tensor& grad_out;
  std::vector<std::map<std::string, double>>& phases;
  void operator()() const {
    trace::PhaseTimes times(x.device());  // on a GPU, the device's time per phase
    {
      trace::ActivePhaseTimes active(&times);
      auto result = layer.forward(x);
      trace::ScopedPhase phase("backward");
      torch::autograd::backward({result.output}, {grad_out});
    }
    clear_grads(layer, x);
    phases.push_back(times.ms());
  }
};

constexpr const char* kRoutingPhases[] = {"gate", "dispatch", "combine", "dispatch_backward",
                                          "combine_backward"};

double phase_or_zero(const std::map<std::string, double>& phases, const std::string& name) {
  auto it = phases.find(name);
  return it == phases.end() ? 0.0 : it->second;
}

}  // namespace

LayerBenchResult benchmark_layer(const protocol::RunConfig& config,
                                 const LayerBenchOptions& options) {
  const at::Device device = runtime::compute_device(train::resolved_device(config), 0);
  const auto dtype = bench_dtype(config.train.dtype, device);
  torch::manual_seed(config.seed);
  LayerBenchResult r;
  const int64_t M = config.model.dim, H = config.moe.hidden;
  r.tokens = config.train.batch_size * config.model.seq_len;
  r.top_k = std::min(config.moe.top_k, config.moe.experts);

  layer::MoeLayer layer(M, config.moe);
  layer->to(device, dtype);
  layer->train();
  auto x = at::randn({r.tokens, M}, at::TensorOptions().dtype(dtype).device(device))
               .set_requires_grad(true);
  auto grad_out = at::randn_like(x);
  const auto first = layer->forward(x).stats;
  r.capacity = first.capacity;
  r.buffer_rows = config.moe.experts * r.capacity;
  r.routed_rows = first.kept.sum().item<int64_t>();
  const bool ragged = layer::ragged_experts(first.kept, first.demand, r.buffer_rows,
                                            device.is_cpu() && first.kept.is_cpu());

  const bool gated = config.moe.expert_ffn == protocol::ExpertFfn::Glu;
  const ExpertGemms gemms({config.moe.experts, r.capacity, M, H, dtype, device, gated});
  r.ceiling_gemms = gemms.count();
  // train.threads > 0 fixes the threads (the kernels' pool, and the GEMMs' BLAS or intra-op
  // pool); 0 keeps the search. --blas-threads fixes the GEMMs' threads in either case: the BLAS's
  // own where it has them (OpenBLAS), else LibTorch's intra-op pool (MKL in PyPI's torch follows
  // it).
  const int fixed = static_cast<int>(config.train.threads);
  kernels::cpu_backend().set_threads(fixed);  // 0: every core
  auto candidates = candidate_thread_configs();
  if (fixed > 0) {
    candidates = {blas_threads_controllable() ? ThreadConfig{1, fixed} : ThreadConfig{fixed, 0}};
  }
  if (options.blas_threads > 0) {
    candidates = {blas_threads_controllable() ? ThreadConfig{1, options.blas_threads}
                                              : ThreadConfig{options.blas_threads, 0}};
  }
  r.threads = candidates.size() == 1
                  ? candidates.front()
                  : measure_gemm_ceiling(gemms, options.timing, candidates).threads;
  apply_thread_config(r.threads);  // the layer runs under the ceiling's best setting
  r.kernel_threads = kernels::cpu_backend().threads();
  {
    torch::NoGradGuard no_grad;
    r.forward_ms = median_ms(options.timing, synchronized([&] { layer->forward(x); }, device));
  }

  // Ceiling, layer and (optionally) the naive baseline, once each per round.
  std::vector<std::map<std::string, double>> phases;
  std::vector<std::function<void()>> fns{
      synchronized([&] { gemms.train_step(); }, device),
      synchronized(TrainStep{*layer, x, grad_out, phases}, device)};
  std::vector<std::map<std::string, double>> padded_phases;
  const size_t padded_fn = fns.size();
  if (ragged) {
    fns.push_back(synchronized(
        [&] {
          layer::PaddedExpertsScope padded;
          TrainStep{*layer, x, grad_out, padded_phases}();
        },
        device));
  }
  const size_t naive_fn = fns.size();
  if (options.naive) {
    fns.push_back(synchronized(
        [&] {
          auto out = naive_moe_forward(*layer, x).output;
          torch::autograd::backward({out}, {grad_out});
          clear_grads(*layer, x);
        },
        device));
  }
  // The naive baseline takes seconds a run: one warm-up run is enough for it.
  std::vector<int> warmups(fns.size(), options.timing.warmup);
  if (options.naive) warmups[naive_fn] = std::min(options.timing.warmup, 1);
  const Rounds rounds(options.timing, fns, warmups);
  r.rounds = static_cast<int>(rounds.count());
  phases.erase(phases.begin(), phases.end() - r.rounds);  // drop the warm-up steps
  r.ceiling_train_ms = rounds.median_ms(0);
  r.train_ms = rounds.median_ms(1);
  r.efficiency = rounds.median_ratio(0, 1);
  if (ragged) {
    r.padded_train_ms = rounds.median_ms(padded_fn);
    r.ragged_speedup = rounds.median_ratio(padded_fn, 1);
  }

  std::vector<double> shares;
  std::map<std::string, std::vector<double>> by_phase;
  for (int i = 0; i < r.rounds; ++i) {
    double routing = 0;
    for (const char* name : kRoutingPhases) routing += phase_or_zero(phases[i], name);
    shares.push_back(routing / rounds.ms(1)[i]);
    for (const auto& [name, ms] : phases[i]) by_phase[name].push_back(ms);
  }
  r.routing_share = median_of(shares);
  for (auto& [name, values] : by_phase) {
    values.resize(r.rounds, 0.0);  // a phase missing from a step took no time there
    r.phases_ms[name] = median_of(values);
  }

  // Tutel's figure counts two GEMMs a token forward; gated experts run three.
  const double flops = protocol::expert_train_flops(r.tokens, r.top_k, M, H) * r.ceiling_gemms / 6;
  r.forward_tokens_per_s = r.tokens / (r.forward_ms / 1e3);
  r.train_tokens_per_s = r.tokens / (r.train_ms / 1e3);
  r.train_tflops = flops / (r.train_ms / 1e3) / 1e12;

  if (options.naive) {
    r.naive_train_ms = rounds.median_ms(naive_fn);
    r.naive_train_tokens_per_s = r.tokens / (r.naive_train_ms / 1e3);
    r.naive_speedup = rounds.median_ratio(naive_fn, 1);
    torch::NoGradGuard no_grad;
    layer->eval();  // no gate noise in either
    const auto naive = naive_moe_forward(*layer, x);
    r.naive_capacity = naive.capacity;
    if (naive_comparable(config.moe)) {
      r.naive_max_abs_diff = (layer->forward(x).output - naive.output).abs().max().item<double>();
    }
    layer->train();
  }
  return r;
}

}  // namespace moe::bench

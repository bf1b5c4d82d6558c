#include "bench/calibrate_gemm.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "bench/timing.h"
#include "layer/expert_ffn.h"
#include "plan/step_counts.h"
#include "runtime/device.h"
#include "train/engine_support.h"

namespace moe::bench {
namespace {

// The profile's dtype name for GEMMs of train.dtype: the engine computes float16 runs in float32.
std::string engine_dtype(protocol::Dtype dtype) {
  return to_string(dtype == protocol::Dtype::Float16 ? protocol::Dtype::Float32 : dtype);
}

at::ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "bfloat16") return at::kBFloat16;
  if (dtype == "float64") return at::kDouble;
  return at::kFloat;
}

void add_unique(std::vector<GemmShape>& shapes, const GemmShape& s) {
  if (s.m <= 0 || s.k <= 0 || s.n <= 0) return;
  for (const auto& t : shapes) {
    if (t.m == s.m && t.k == s.k && t.n == s.n && t.batch == s.batch && t.dtype == s.dtype &&
        t.ranks == s.ranks && t.expert_ffn == s.expert_ffn)
      return;
  }
  shapes.push_back(s);
}

// The phases whose FLOPs the planner prices with a GEMM rate.
void add_config_shapes(std::vector<GemmShape>& shapes, const protocol::RunConfig& config,
                       const plan::Layout& layout, int64_t ranks) {
  plan::StepCounts counts;
  try {
    counts = plan::count_step(config, layout);
  } catch (const std::invalid_argument&) {
    return;  // experts or batch do not fit this number of ranks: the planner will not ask
  }
  const std::string dtype = engine_dtype(config.train.dtype);
  for (const plan::PhaseWork* p :
       {&counts.gate, &counts.experts, &counts.other, &counts.attention}) {
    if (p->flops > 0) add_unique(shapes, {p->m, p->k, p->n, p->batch, dtype, ranks, p->expert_ffn});
  }
}

}  // namespace

std::vector<GemmShape> calibration_shapes(const std::vector<protocol::RunConfig>& configs,
                                          const std::vector<int>& nprocs, bool quick, bool on_gpu) {
  std::vector<GemmShape> shapes;
  std::vector<std::string> dtypes{"float32"};
  for (const auto& config : configs) {
    const std::string dtype = engine_dtype(config.train.dtype);
    if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end()) dtypes.push_back(dtype);
    plan::Layout layout = plan::config_layout(config);
    layout.nodes = 1;
    layout.nproc_per_node = 1;
    add_config_shapes(shapes, config, layout, 1);
    // On a CPU n local ranks share the cores: each layout's shapes are timed by n workers at
    // once too, each with the threads one of its ranks gets (more ranks than cores included:
    // 4 ranks on 2 cores ran their experts 1.5x slower than 2 workers timed it).
    for (int n : nprocs) {
      layout.nproc_per_node = n;
      add_config_shapes(shapes, config, layout, 1);
      if (!on_gpu && n > 1) add_config_shapes(shapes, config, layout, n);
    }
  }
  // A small grid for configs not measured here: the planner takes the nearest shape.
  const std::vector<int64_t> ms =
      quick ? std::vector<int64_t>{256, 1024} : std::vector<int64_t>{256, 1024, 4096};
  const std::vector<int64_t> ks =
      quick ? std::vector<int64_t>{64, 256} : std::vector<int64_t>{64, 256, 1024};
  for (const auto& dtype : dtypes) {
    for (int64_t m : ms) {
      for (int64_t k : ks) add_unique(shapes, {m, k, k, 1, dtype, 1});
    }
  }
  const int64_t big = on_gpu ? 4096 : quick ? 256 : 512;
  for (const char* dtype : {"bfloat16", "float64"}) {
    if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end())
      add_unique(shapes, {big, big, big, 1, dtype, 1});
  }
  return shapes;
}

namespace {

struct PairTimes {
  double pair_ms = 0, op_ms = 0;  // GEMM + the element-wise op after it; the op alone
  double backward_ms = 0;         // the input and the weight gradient's GEMMs (less their ops)
};

// out = a x b, batched where a is.
void product_into(at::Tensor& out, const at::Tensor& a, const at::Tensor& b) {
  if (a.dim() == 3) {
    at::bmm_out(out, a, b);
  } else {
    at::mm_out(out, a, b);
  }
}

// The last two dimensions swapped: a transposed view, as autograd and F::linear make them.
at::Tensor transposed(const at::Tensor& x) {
  return x.transpose(-2, -1);
}

// The engine's expert FFN forward, then its backward (input and weight gradients), as the
// experts' phase and their share of backward run them.
template <typename Ready>
PairTimes time_expert_ffn(const GemmShape& s, const at::Device& device, bool quick, Ready&& ready) {
  torch::NoGradGuard no_grad;
  auto opt = at::TensorOptions().dtype(scalar_type(s.dtype)).device(device);
  const layer::ExpertWeights w{
      at::randn({s.batch, s.n, s.k}, opt) * 0.02, at::zeros({s.batch, s.n}, opt),
      at::randn({s.batch, s.n, s.k}, opt) * 0.02, at::zeros({s.batch, s.k}, opt)};
  const auto d = at::randn({s.batch, s.m, s.k}, opt), grad_y = at::randn({s.batch, s.m, s.k}, opt);
  TimingOptions timing{device.is_cuda() ? 3 : 1, quick ? 2 : 3, quick ? 0.02 : 0.2};
  layer::ExpertFfnSaved saved;
  PairTimes times;
  ready();
  times.pair_ms = median_ms(timing, [&] {
    layer::expert_ffn_forward(d, w, protocol::Activation::Gelu, saved);
    runtime::synchronize(device);
  });
  ready();
  times.backward_ms = median_ms(timing, [&] {
    layer::expert_ffn_backward(grad_y, saved, w, protocol::Activation::Gelu, true, true);
    runtime::synchronize(device);
  });
  return times;
}

// One rank's view of the shape: its own operands, then `ready()` (where concurrent workers line
// up) before each measurement: the GEMM with the op that follows it, the op alone, backward.
template <typename Ready>
PairTimes time_pair(const GemmShape& s, const at::Device& device, bool quick, Ready&& ready) {
  torch::NoGradGuard no_grad;
  auto opt = at::TensorOptions().dtype(scalar_type(s.dtype)).device(device);
  auto sized = [&](int64_t rows, int64_t cols) {
    return s.batch > 1 ? at::randn({s.batch, rows, cols}, opt) : at::randn({rows, cols}, opt);
  };
  // The weight is held [n, k] and enters transposed, as F::linear's weight and the experts' fc1
  // [E, H, M] do (core/engine/layer/expert_ffn.cpp): ATen picks another path for it than for a
  // contiguous [k, n], 2.5x faster at 8 x [512, 512] x [512, 2048] here.
  const auto x = sized(s.m, s.k), w = sized(s.n, s.k), dy = sized(s.m, s.n);
  auto y = sized(s.m, s.n), dx = sized(s.m, s.k), dw = sized(s.n, s.k);
  TimingOptions timing{device.is_cuda() ? 3 : 1, quick ? 2 : 3, quick ? 0.02 : 0.2};
  // In a layer a GEMM never runs alone: an element-wise op on its result follows (bias,
  // activation), and on the CPU the two run on different thread pools (OpenBLAS's, OpenMP's)
  // that hand the cores over. Timed as that pair, less the element-wise op alone, the rate
  // carries the hand-over as the engine pays it. Results go into the same outputs each time: a
  // fresh 32 MiB result per call cost this VM a page fault per page (8 x [512, 512] x [512,
  // 2048] measured 58 GFLOP/s that way, 167 into one buffer, and the engine's experts ran at
  // 160: its allocator reuses what the previous step freed).
  PairTimes times;
  ready();
  times.pair_ms = median_ms(timing, [&] {
    product_into(y, x, transposed(w));
    y.add_(1.0);
    runtime::synchronize(device);
  });
  ready();
  times.op_ms = median_ms(timing, [&] {
    y.add_(1.0);
    runtime::synchronize(device);
  });
  // Backward as autograd runs it: dx = dy w (w as held), dw = dy^T x (a transposed view), each
  // followed by the element-wise op that hands the cores back (as forward: less the ops alone).
  ready();
  const double backward_pair_ms = median_ms(timing, [&] {
    product_into(dx, dy, w);
    dx.add_(1.0);
    product_into(dw, transposed(dy), x);
    dw.add_(1.0);
    runtime::synchronize(device);
  });
  ready();
  const double backward_ops_ms = median_ms(timing, [&] {
    dx.add_(1.0);
    dw.add_(1.0);
    runtime::synchronize(device);
  });
  times.backward_ms = std::max(backward_pair_ms - backward_ops_ms, backward_pair_ms / 2);
  return times;
}

// The shape as its kind runs: the engine's expert FFN, or one GEMM with the op after it.
template <typename Ready>
PairTimes time_shape(const GemmShape& s, const at::Device& device, bool quick, Ready&& ready) {
  return s.expert_ffn ? time_expert_ffn(s, device, quick, ready)
                      : time_pair(s, device, quick, ready);
}

// Returns once `count` threads have arrived in this round (C++17 has no std::barrier).
class Rendezvous {
 public:
  explicit Rendezvous(int count) : count_(count) {}
  void arrive() {
    std::unique_lock<std::mutex> lock(mutex_);
    const int64_t round = round_;
    if (++waiting_ == count_) {
      waiting_ = 0;
      ++round_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return round_ != round; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int count_, waiting_ = 0;
  int64_t round_ = 0;
};

// `ranks` workers time the shape at once, each with the intra-op threads the caller set: local
// ranks sharing a CPU run their GEMMs at the same time, and share its cores, caches and memory
// (timed alone, one thread of this 2-vCPU VM ran as fast as two). The mean over the workers.
PairTimes time_pair_concurrently(const GemmShape& s, const at::Device& device, bool quick) {
  const int workers = static_cast<int>(s.ranks), threads = at::get_num_threads();
  Rendezvous rendezvous(workers);
  std::vector<PairTimes> times(workers);
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      at::set_num_threads(threads);  // per thread: OpenMP's thread count is each thread's own
      const auto ready = [&] { rendezvous.arrive(); };
      times[w] = time_shape(s, device, quick, ready);
    });
  }
  for (auto& t : pool) t.join();
  PairTimes mean;
  for (const auto& t : times) {
    mean.pair_ms += t.pair_ms / workers;
    mean.op_ms += t.op_ms / workers;
    mean.backward_ms += t.backward_ms / workers;
  }
  return mean;
}

}  // namespace

plan::GemmRate time_gemm(const GemmShape& s, const at::Device& device, bool quick) {
  const auto alone = [](auto&&...) {};
  PairTimes t;
  if (s.ranks > 1 && !device.is_cuda()) {
    // Twice, the faster kept: one stall of a worker (another process taking a core) halved a
    // rate in one calibration of three.
    t = time_pair_concurrently(s, device, quick);
    const PairTimes again = time_pair_concurrently(s, device, quick);
    if (again.pair_ms + again.backward_ms < t.pair_ms + t.backward_ms) t = again;
  } else {
    t = time_shape(s, device, quick, alone);
  }
  const double ms = std::max(t.pair_ms - t.op_ms, t.pair_ms / 2);
  // An expert FFN is two GEMMs of the shape's size.
  const double flops = (s.expert_ffn ? 4.0 : 2.0) * static_cast<double>(s.batch) *
                       static_cast<double>(s.m) * static_cast<double>(s.k) *
                       static_cast<double>(s.n);
  plan::GemmRate rate{s.m,
                      s.k,
                      s.n,
                      s.batch,
                      s.ranks,
                      s.dtype,
                      flops / (ms / 1e3),
                      2 * flops / (t.backward_ms / 1e3)};
  rate.expert_ffn = s.expert_ffn;
  return rate;
}

}  // namespace moe::bench

// Throughput of the CPU backend's dispatch/combine kernels (forward and backward) and of routing,
// called through the backend interface as the engine calls them.
//   kernels_bench [--benchmark_filter=...]
// bytes/s counts the rows each kernel must move: kept-choice rows read or written, plus the
// [E, C, M] buffer (zero-filled slots included) or the [N, M] rows on the other side.
#include <benchmark/benchmark.h>
#include <moe_kernels/backend.h>
#include <moe_kernels/capacity.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

namespace mk = moe::kernels;
using mk::DType;

namespace {

mk::Backend& cpu() {
  return mk::cpu_backend();
}

struct Problem {
  int64_t N, E, k, M, C;
  std::vector<int32_t> idx, loc;
  std::vector<int64_t> map;
  int64_t kept = 0;  // kept choices
  std::vector<float> x, gates, buffer, grad_buffer, out, grad_out, grad_x, grad_gates;
  mk::RoutingView view() const {
    return mk::RoutingView{idx.data(), loc.data(), map.data(), N, E, k, C};
  }
};

// Random softmax-like scores, routed with the library's own kernels; built once per shape.
const Problem& problem(int64_t E, int64_t k, int64_t M, int64_t N, int64_t C) {
  static std::map<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>, std::unique_ptr<Problem>>
      cache;
  auto& slot = cache[{E, k, M, N, C}];
  if (slot) return *slot;
  auto p = std::make_unique<Problem>();
  p->N = N, p->E = E, p->k = k, p->M = M, p->C = C;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<float> scores(static_cast<size_t>(N * E));
  for (auto& s : scores) s = u(rng);
  p->idx.resize(static_cast<size_t>(k * N));
  cpu().topk_choices(DType::float32, scores.data(), N, E, k, nullptr, p->idx.data(), nullptr);
  p->loc.resize(static_cast<size_t>(k * N));
  std::vector<int64_t> counts(static_cast<size_t>(k * E));
  cpu().slot_locations(p->idx.data(), N, E, k, nullptr, p->loc.data(), counts.data(), nullptr);
  p->map.resize(static_cast<size_t>(E * C));
  cpu().build_slot_map(p->idx.data(), p->loc.data(), N, E, k, C, p->map.data(), nullptr);
  p->kept = std::count_if(p->loc.begin(), p->loc.end(), [C](int32_t s) { return s < C; });
  auto fill = [&](std::vector<float>& v, size_t n) {
    v.resize(n);
    for (auto& e : v) e = u(rng);
  };
  const size_t nm = static_cast<size_t>(N * M), ecm = static_cast<size_t>(E * C * M);
  fill(p->x, nm);
  fill(p->gates, static_cast<size_t>(k * N));
  fill(p->buffer, ecm);
  fill(p->grad_buffer, ecm);
  fill(p->out, nm);
  fill(p->grad_out, nm);
  fill(p->grad_x, nm);
  fill(p->grad_gates, static_cast<size_t>(k * N));
  slot = std::move(p);
  return *slot;
}

enum class Kernel { DispatchFwd, CombineFwd, DispatchBwd, CombineBwd };

// Args: E, k, M, N, C, threads.
template <Kernel K>
void BM_Kernel(benchmark::State& state) {
  const auto& cp =
      problem(state.range(0), state.range(1), state.range(2), state.range(3), state.range(4));
  auto& p = const_cast<Problem&>(cp);
  cpu().set_threads(static_cast<int>(state.range(5)));
  const auto v = p.view();
  const int64_t row = p.M * static_cast<int64_t>(sizeof(float));
  const int64_t slots = p.E * p.C, kept = p.kept, N = p.N;
  int64_t rows = 0;
  for (auto _ : state) {
    switch (K) {
      case Kernel::DispatchFwd:  // read kept x rows, write E*C rows
        cpu().dispatch_forward(DType::float32, v, p.x.data(), p.gates.data(), p.M, p.buffer.data(),
                               nullptr);
        rows = kept + slots;
        break;
      case Kernel::CombineFwd:  // read kept Y rows, write N rows
        cpu().combine_forward(DType::float32, v, p.buffer.data(), p.gates.data(), p.M, p.out.data(),
                              nullptr);
        rows = kept + N;
        break;
      case Kernel::DispatchBwd:  // read kept grad_D rows and N x rows, write N grad_x rows
        cpu().dispatch_backward(DType::float32, v, p.grad_buffer.data(), p.x.data(), p.gates.data(),
                                p.M, p.grad_x.data(), p.grad_gates.data(), nullptr);
        rows = kept + 2 * N;
        break;
      case Kernel::CombineBwd:  // read kept grad_out and Y rows, write E*C grad_Y rows
        cpu().combine_backward(DType::float32, v, p.grad_out.data(), p.buffer.data(),
                               p.gates.data(), p.M, p.grad_buffer.data(), p.grad_gates.data(),
                               nullptr);
        rows = 2 * kept + slots;
        break;
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * rows * row);
  state.counters["kept"] = static_cast<double>(kept);
  cpu().set_threads(0);
}

// Args: E, k, N, threads. topk + slot_locations + build_slot_map on [N, E] float scores.
void BM_Routing(benchmark::State& state) {
  const int64_t E = state.range(0), k = state.range(1), N = state.range(2);
  cpu().set_threads(static_cast<int>(state.range(3)));
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<float> scores(static_cast<size_t>(N * E));
  for (auto& s : scores) s = u(rng);
  std::vector<int32_t> idx(static_cast<size_t>(k * N)), loc(static_cast<size_t>(k * N));
  std::vector<int64_t> counts(static_cast<size_t>(k * E)), demand(static_cast<size_t>(E));
  std::vector<int64_t> map;
  for (auto _ : state) {
    cpu().topk_choices(DType::float32, scores.data(), N, E, k, nullptr, idx.data(), nullptr);
    cpu().slot_locations(idx.data(), N, E, k, nullptr, loc.data(), counts.data(), nullptr);
    cpu().demand_from_counts(counts.data(), E, k, demand.data(), nullptr, nullptr);
    const int64_t C = mk::capacity(1.0, N, E, k, 0, 1);
    map.resize(static_cast<size_t>(E * C));
    cpu().build_slot_map(idx.data(), loc.data(), N, E, k, C, map.data(), nullptr);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * N);  // tokens/s
  cpu().set_threads(0);
}

// The ceiling: memcpy of an [E*C, M] float buffer (bytes read + written), one thread.
void BM_Memcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0)) << 20;
  std::vector<char> src(n, 1), dst(n, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(2 * n));
}

void Shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"E", "k", "M", "N", "C", "threads"});
  for (int64_t threads : {1, 2}) {
    b->Args({64, 8, 512, 4096, 512, threads});
    b->Args({8, 2, 512, 8192, 2048, threads});
  }
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(BM_Memcpy)->ArgName("MiB")->Arg(64)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Kernel, Kernel::DispatchFwd)->Apply(Shapes);
BENCHMARK_TEMPLATE(BM_Kernel, Kernel::CombineFwd)->Apply(Shapes);
BENCHMARK_TEMPLATE(BM_Kernel, Kernel::DispatchBwd)->Apply(Shapes);
BENCHMARK_TEMPLATE(BM_Kernel, Kernel::CombineBwd)->Apply(Shapes);
BENCHMARK(BM_Routing)
    ->ArgNames({"E", "k", "N", "threads"})
    ->Args({64, 8, 4096, 1})
    ->Args({64, 8, 4096, 2})
    ->Args({8, 2, 8192, 1})
    ->Args({8, 2, 8192, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();

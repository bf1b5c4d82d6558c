#include "runtime/thread_pools.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "moe_kernels/backend.h"

namespace moe::runtime {

namespace {

// Symbols of libraries LibTorch loads (libgomp, OpenBLAS); looked up rather than linked so that
// the engine runs, without these refinements, on whatever the system provides.
template <typename Fn>
Fn lookup(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

using OmpSetNumThreads = void (*)(int);
OmpSetNumThreads g_omp_set_num_threads = nullptr;

// The kernels' nested-parallelism hooks for LibTorch on OpenMP. The team size a LibTorch op uses
// is the calling thread's OpenMP setting, and a thread the kernels created starts with OpenMP's
// default (every core) whatever at::set_num_threads said: an element-wise op inside a chunk
// would start a second team on cores the pool already fills. at::get_num_threads() first lets
// LibTorch apply its own per-thread setting, which would otherwise overwrite ours later.
int serial_openmp() {
  const int previous = at::get_num_threads();
  g_omp_set_num_threads(1);
  return previous;
}

void restore_openmp(int threads) {
  g_omp_set_num_threads(threads);
}

bool install_nested_serial() {
  if (at::get_parallel_info().find("parallel backend: OpenMP") == std::string::npos) return false;
  g_omp_set_num_threads = lookup<OmpSetNumThreads>("omp_set_num_threads");
  if (!g_omp_set_num_threads) return false;
  kernels::set_nested_parallelism_hooks({&serial_openmp, &restore_openmp});
  return true;
}

// OpenBLAS's idle threads wait for the next call spinning on sched_yield for 2^28 TSC cycles
// (about 0.1 s) after every call, so the kernels that run between two GEMMs share the cores
// with them (docs/BENCHMARKS.md, "Figures the code's choices rest on"). A wait of
// 2^20 cycles (0.4 ms at 2.6 GHz) still bridges the gaps between the GEMMs of one batched
// matmul, and is short beside a kernel. OpenBLAS reads OPENBLAS_THREAD_TIMEOUT when it starts
// its threads, so they are stopped here; its next call starts them afresh. A timeout the user
// set is kept: it was read when the library loaded.
bool park_idle_blas_threads() {
  auto read_env = lookup<void (*)()>("openblas_read_env");
  auto stop_threads = lookup<int (*)()>("blas_thread_shutdown_");
  if (!read_env || !stop_threads) return false;
  if (std::getenv("OPENBLAS_THREAD_TIMEOUT")) return true;
  setenv("OPENBLAS_THREAD_TIMEOUT", "20", 0);
  read_env();
  stop_threads();
  return true;
}

}  // namespace

ThreadPoolSharing share_cores_between_thread_pools() {
  static const ThreadPoolSharing done = [] {
    ThreadPoolSharing s;
    s.nested_serial = install_nested_serial();
    s.blas_parked = park_idle_blas_threads();
    return s;
  }();
  return done;
}

int blas_num_threads() {
  auto get = lookup<int (*)()>("openblas_get_num_threads");
  return get && lookup<void (*)(int)>("openblas_set_num_threads") ? get() : 0;
}

void set_blas_num_threads(int n) {
  if (auto set = lookup<void (*)(int)>("openblas_set_num_threads")) set(n);
}

}  // namespace moe::runtime

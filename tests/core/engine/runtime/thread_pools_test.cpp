// The engine's thread pools share the cores: LibTorch ops inside the kernels' chunks run on the
// chunk's own thread, and OpenBLAS's idle threads sleep instead of spinning after a GEMM.
#include <gtest/gtest.h>
#include <moe_kernels/backend.h>
#include <torch/torch.h>

#include <chrono>
#include <ctime>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/thread_pools.h"

namespace moe::runtime {
namespace {

double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// CPU time of every thread of the process but the calling one.
double other_threads_cpu_seconds() {
  return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
}

TEST(ThreadPools, LibTorchOpsInsideKernelChunksRunSerial) {
  // Debian's LibTorch runs its intra-op pool on OpenMP: the hooks must be installed.
  ASSERT_TRUE(share_cores_between_thread_pools().nested_serial);
  at::set_num_threads(2);
  kernels::cpu_backend().set_threads(2);
  const auto caller = std::this_thread::get_id();
  std::mutex m;
  std::vector<int> seen;
  bool worker_ran = false;
  // Retry until a worker takes a chunk (it may not wake before the caller finishes them all).
  for (int attempt = 0; attempt < 20 && !worker_ran; ++attempt) {
    kernels::cpu_backend().parallel_for(8, 1, [&](int64_t, int64_t) {
      const int threads = at::get_num_threads();
      // A real element-wise op of LibTorch's inside the chunk, large enough to be split.
      auto t = at::ones({1 << 18});
      t.add_(1);
      std::lock_guard<std::mutex> lock(m);
      seen.push_back(threads);
      if (std::this_thread::get_id() != caller) worker_ran = true;
      EXPECT_EQ(t.sum().item<double>(), 2.0 * (1 << 18));
    });
  }
  EXPECT_TRUE(worker_ran) << "no chunk ever ran on a worker thread";
  for (int threads : seen) EXPECT_EQ(threads, 1);
  EXPECT_EQ(at::get_num_threads(), 2) << "the caller's setting is back after the job";
  kernels::cpu_backend().set_threads(0);
  at::set_num_threads(1);
}

// GEMMs run on OpenBLAS's own threads (Debian's LibTorch) or on OpenMP's with MKL (PyPI's
// torch, where BLAS threads follow at::set_num_threads). Either way their idle threads must not
// keep spinning on the cores the kernels' pool uses next.
TEST(ThreadPools, IdleGemmThreadsSleepAfterAGemm) {
  const bool openblas = blas_num_threads() > 0;
  const int saved_blas = blas_num_threads();
  if (openblas) {
    // OpenBLAS (pthreads) lets its idle wait be shortened: the engine does at start-up.
    ASSERT_TRUE(share_cores_between_thread_pools().blas_parked);
    set_blas_num_threads(2);
    at::set_num_threads(1);
  } else {
    at::set_num_threads(2);
  }
  auto a = at::randn({512, 512});
  const double at_start = other_threads_cpu_seconds();
  for (int i = 0; i < 10; ++i) a = at::mm(a, a) / 512.0;
  // The GEMMs ran on a second thread too, so there is a worker that could spin.
  EXPECT_GT(other_threads_cpu_seconds() - at_start, 0.0);
  const double before = other_threads_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double used = other_threads_cpu_seconds() - before;
  EXPECT_LT(used, 0.02) << "other threads burned " << used << " s of CPU after the GEMM";
  EXPECT_TRUE(a.isfinite().all().item<bool>());
  if (openblas) set_blas_num_threads(saved_blas);
  at::set_num_threads(1);
}

}  // namespace
}  // namespace moe::runtime

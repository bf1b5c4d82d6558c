#pragma once
// The two thread pools a LibTorch GEMM can run on: LibTorch's intra-op pool and the BLAS
// library's own (OpenBLAS). They interact, so benchmarks try combinations and report which.
#include <string>

namespace moe::bench {

struct ThreadConfig {
  int intra_op = 1;  // at::set_num_threads
  int blas = 1;      // openblas_set_num_threads; 0 when the BLAS has no such control
  std::string describe() const;
};

// Whether the loaded BLAS lets us set its thread count (OpenBLAS does).
bool blas_threads_controllable();
ThreadConfig current_thread_config();
void apply_thread_config(const ThreadConfig& config);

}  // namespace moe::bench

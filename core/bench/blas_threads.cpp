#include "bench/blas_threads.h"

#include <ATen/Parallel.h>

#include "runtime/thread_pools.h"

namespace moe::bench {

std::string ThreadConfig::describe() const {
  return "intra-op " + std::to_string(intra_op) + ", BLAS " +
         (blas > 0 ? std::to_string(blas) : std::string("n/a"));
}

bool blas_threads_controllable() {
  return runtime::blas_num_threads() > 0;
}

ThreadConfig current_thread_config() {
  ThreadConfig c;
  c.intra_op = at::get_num_threads();
  c.blas = runtime::blas_num_threads();
  return c;
}

void apply_thread_config(const ThreadConfig& config) {
  at::set_num_threads(config.intra_op);
  if (config.blas > 0) runtime::set_blas_num_threads(config.blas);
}

}  // namespace moe::bench

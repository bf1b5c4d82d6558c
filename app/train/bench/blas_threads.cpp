#include "bench/blas_threads.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>

namespace moe::train {

namespace {

// Looked up at run time so the binary does not link OpenBLAS by name: LibTorch brings whichever
// BLAS the system provides.
using SetThreads = void (*)(int);
using GetThreads = int (*)();

SetThreads blas_set() {
  return reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
}
GetThreads blas_get() {
  return reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
}

}  // namespace

std::string ThreadConfig::describe() const {
  return "intra-op " + std::to_string(intra_op) + ", BLAS " +
         (blas > 0 ? std::to_string(blas) : std::string("n/a"));
}

bool blas_threads_controllable() {
  return blas_set() && blas_get();
}

ThreadConfig current_thread_config() {
  ThreadConfig c;
  c.intra_op = at::get_num_threads();
  c.blas = blas_get() ? blas_get()() : 0;
  return c;
}

void apply_thread_config(const ThreadConfig& config) {
  at::set_num_threads(config.intra_op);
  if (config.blas > 0 && blas_set()) blas_set()(config.blas);
}

}  // namespace moe::train

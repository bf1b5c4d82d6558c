#pragma once
// The kernels' own worker pool. Workers sleep when idle (no spinning), so they never steal cores
// from OpenBLAS's threads between kernels.
#include <cstdint>
#include <functional>

namespace moe::kernels {

// Threads used by the kernels; 0 (the default) means std::thread::hardware_concurrency().
void set_num_threads(int n);
int num_threads();

// Other libraries' parallelism inside a pool job. A chunk may call into a library that has
// threads of its own (the engine runs LibTorch's element-wise ops, OpenMP-parallel, inside
// chunks); left alone, that library starts its threads on the very cores the pool is using. The
// kernels link no such library, so the engine installs hooks: `serial` makes the calling
// thread's library calls run on that thread alone and returns what `restore` needs to undo it.
// A worker calls `serial` before the chunks it takes; the thread that submits a job calls
// `serial` before running its own chunks and `restore` after. Null hooks: nothing is done.
struct NestedParallelismHooks {
  int (*serial)() = nullptr;
  void (*restore)(int state) = nullptr;
};
void set_nested_parallelism_hooks(NestedParallelismHooks hooks);

// Calls fn(begin, end) over [0, n) split into contiguous chunks of at least `grain` items, on the
// pool. Runs inline when one chunk suffices. Blocks until every chunk is done.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace moe::kernels

#pragma once
// The kernels' own worker pool. Workers sleep when idle (no spinning), so they never steal cores
// from OpenBLAS's threads between kernels.
#include <cstdint>
#include <functional>

#include "moe_kernels/backend.h"

namespace moe::kernels {

// Threads used by the kernels; 0 (the default) means std::thread::hardware_concurrency().
void set_num_threads(int n);
int num_threads();

// Calls fn(begin, end) over [0, n) split into contiguous chunks of at least `grain` items, on the
// pool. Runs inline when one chunk suffices. Blocks until every chunk is done. The hooks of
// set_nested_parallelism_hooks (moe_kernels/backend.h) wrap the chunks: a worker calls `serial`
// before the chunks it takes; the submitting thread calls `serial` before its own chunks and
// `restore` after.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace moe::kernels

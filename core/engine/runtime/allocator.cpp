#include "runtime/allocator.h"

#include <malloc.h>

#include <cstdlib>

namespace moe::runtime {

void keep_freed_memory_in_process() {
  mallopt(M_MMAP_MAX, 0);              // every block from the heap, none mmapped
  mallopt(M_TRIM_THRESHOLD, 1 << 30);  // do not trim the heap's top back to the kernel
  mallopt(M_TOP_PAD, 64 << 20);        // grow the heap in big steps
  // MKL (the BLAS inside PyPI's torch) keeps the buffers of its GEMMs in a pool of its own,
  // whose size depended on timing: the same run peaked 0.4-0.6 GB higher in one try out of a
  // few. Without the pool, its buffers come from this heap and are reused like everything else.
  // MKL reads the variable at its first call; one the user set is kept.
  setenv("MKL_DISABLE_FAST_MM", "1", 0);
}

}  // namespace moe::runtime

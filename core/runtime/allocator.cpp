#include "runtime/allocator.h"

#include <malloc.h>

namespace moe {

void keep_freed_memory_in_process() {
  mallopt(M_MMAP_MAX, 0);              // every block from the heap, none mmapped
  mallopt(M_TRIM_THRESHOLD, 1 << 30);  // do not trim the heap's top back to the kernel
  mallopt(M_TOP_PAD, 64 << 20);        // grow the heap in big steps
}

}  // namespace moe

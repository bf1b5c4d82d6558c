#pragma once
// Kernels with one block per work item (a token row, a tile, an expert): a block's phases cover
// one item, so items cannot be grid-strided; they are launched in grids of at most kMaxBlocks,
// each told the first item it covers.
#include <algorithm>
#include <cstddef>

#include "portable.h"
#include "scratch.h"

namespace moe::kernels::gpu {

// Kernel::Params has an `int64_t first_item`; block b works on item first_item + b.
template <typename Kernel, typename Device>
void run_items(const Launch<Device>& launch, int64_t items, size_t shared_bytes,
               typename Kernel::Params params) {
  for (int64_t first = 0; first < items; first += kMaxBlocks) {
    params.first_item = first;
    launch.template run<Kernel>(std::min(kMaxBlocks, items - first), shared_bytes, params);
  }
}

}  // namespace moe::kernels::gpu

#pragma once
// The host emulation of a device launch (tests only): every block in turn, every thread of the
// block through one phase before any starts the next, which is what a barrier between phases
// guarantees on the device. Shared memory starts as a 0xA5 pattern in every block, so a kernel that
// reads shared memory it did not write fails here too. Slow, exact: it checks the kernels' index
// arithmetic, not their speed.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "portable.h"

namespace moe::kernels::gpu {

template <typename Kernel>
void host_launch(int64_t blocks, int threads, size_t shared_bytes,
                 const typename Kernel::Params& params) {
  std::vector<unsigned char> shared(shared_bytes + 1);
  std::vector<typename Kernel::Local> locals(static_cast<size_t>(threads));
  for (int64_t b = 0; b < blocks; ++b) {
    std::fill(shared.begin(), shared.end(), static_cast<unsigned char>(0xA5));
    std::fill(locals.begin(), locals.end(), typename Kernel::Local{});
    for (int phase = 0; phase < Kernel::kPhases; ++phase) {
      for (int t = 0; t < threads; ++t) {
        const Thread th{b, t, threads, blocks};
        Kernel::run(phase, th, params, locals[static_cast<size_t>(t)], shared.data());
      }
    }
  }
}

}  // namespace moe::kernels::gpu

// The GPU kernels (kernels/gpu/, the one source nvcc and hipcc compile) run on the host through
// the emulating launcher and registered as two backends of this test process: blocks of 256
// threads, as the device builds launch them, and of 64, so that no kernel depends on one block
// size. This is how CI checks the GPU index logic without a GPU; the device itself is checked by
// tests/gpu/run-device-checks.sh.
#include <moe_kernels/backend.h>

#include "gpu/gpu_backend.h"
#include "gpu/host_device.h"

namespace moe::kernels::test {
namespace {

using EmulatedBackend = gpu::GpuBackend<gpu::HostDevice>;

const bool registered = [] {
  static EmulatedBackend blocks_256("emulated-256", DeviceKind::cuda, true, 256);
  static EmulatedBackend blocks_64("emulated-64", DeviceKind::hip, true, 64);
  register_backend(&blocks_256);
  register_backend(&blocks_64);
  return true;
}();

}  // namespace
}  // namespace moe::kernels::test

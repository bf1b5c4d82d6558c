#pragma once
// Temporary device memory of the kernels (slot_locations' tile histograms): one buffer per
// backend, grown when a call needs more and reused after. Work on one stream runs in order, so a
// call may reuse what the previous one used; callers that launch on several streams at once use
// one backend per stream.
#include <cstddef>
#include <mutex>

#include "moe_kernels/backend.h"

namespace moe::kernels::gpu {

template <typename Device>
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (ptr_) Device::release(ptr_);
  }

  // At least `bytes` of device memory, valid until the next call. A smaller buffer is released
  // only after the stream has finished with it.
  void* get(size_t bytes, Stream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > size_) {
      if (ptr_) {
        Device::synchronize(stream);
        Device::release(ptr_);
      }
      ptr_ = Device::allocate(bytes);
      size_ = bytes;
    }
    return ptr_;
  }

 private:
  std::mutex mutex_;
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

// What every operation gets: threads per block, the stream, the scratch buffer.
template <typename Device>
struct Launch {
  int threads;
  Stream stream;
  Scratch<Device>* scratch;

  template <typename Kernel>
  void run(int64_t blocks, size_t shared_bytes, const typename Kernel::Params& params) const {
    if (blocks > 0) Device::template launch<Kernel>(blocks, threads, shared_bytes, stream, params);
  }
};

}  // namespace moe::kernels::gpu

#pragma once
// Host buffers mirrored on a backend's device for one call: inputs go in, outputs come back.
#include <moe_kernels/backend.h>

#include <cstddef>
#include <vector>

namespace moe::kernels::test {

class DeviceCopy {
 public:
  // Copies bytes from host (nullable: a null device pointer) to a new device buffer.
  DeviceCopy(kernels::Backend& backend, const void* host, size_t bytes)
      : backend_(backend), bytes_(bytes) {
    if (!host) return;
    device_ = backend_.allocate(bytes);
    backend_.copy_to_device(device_, host, bytes, nullptr);
  }
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;
  ~DeviceCopy() {
    if (device_) backend_.release(device_);
  }

  template <typename T>
  T* get() const {
    return static_cast<T*>(device_);
  }
  // Copies the device buffer back over the host buffer it came from.
  void copy_back(void* host) const {
    if (device_) backend_.copy_to_host(host, device_, bytes_, nullptr);
  }

 private:
  kernels::Backend& backend_;
  size_t bytes_;
  void* device_ = nullptr;
};

// The routing plan's three arrays on the device, and its view there.
class DeviceRouting {
 public:
  DeviceRouting(kernels::Backend& backend, const RoutingView& host)
      : idx_(backend, host.idx, bytes<int32_t>(host.k * host.N)),
        loc_(backend, host.loc, bytes<int32_t>(host.k * host.N)),
        map_(backend, host.slot_map, bytes<int64_t>(host.E * host.C)),
        view_{idx_.get<int32_t>(),
              loc_.get<int32_t>(),
              map_.get<int64_t>(),
              host.N,
              host.E,
              host.k,
              host.C} {}
  const RoutingView& view() const { return view_; }

 private:
  template <typename T>
  static size_t bytes(int64_t n) {
    return static_cast<size_t>(n > 0 ? n : 0) * sizeof(T);
  }
  DeviceCopy idx_, loc_, map_;
  RoutingView view_;
};

}  // namespace moe::kernels::test

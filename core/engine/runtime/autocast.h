#pragma once
// Autocast switches for one device type (LibTorch 2.4+'s device-type API; the CPU- and GPU-
// specific calls it replaced warn on every use). The engine calls these, never LibTorch's directly.
#include <ATen/autocast_mode.h>

namespace moe::runtime {

inline bool autocast_enabled(at::DeviceType type) {
  return at::autocast::is_autocast_enabled(type);
}

inline at::ScalarType autocast_dtype(at::DeviceType type) {
  return at::autocast::get_autocast_dtype(type);
}

inline void set_autocast(at::DeviceType type, bool enabled, at::ScalarType dtype) {
  at::autocast::set_autocast_dtype(type, dtype);
  at::autocast::set_autocast_enabled(type, enabled);
}

}  // namespace moe::runtime

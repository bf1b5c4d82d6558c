// The backends of this process: cpu always, device backends as they register themselves.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "moe_kernels/backend.h"

namespace moe::kernels {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

// Function-local, so that backends registering at static initialisation find it constructed.
std::vector<Backend*>& device_backends() {
  static std::vector<Backend*> all;
  return all;
}

}  // namespace

const char* device_kind_name(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::cpu:
      return "cpu";
    case DeviceKind::cuda:
      return "cuda";
    case DeviceKind::hip:
      return "hip";
  }
  return "unknown";
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::float32:
      return 4;
    case DType::float64:
      return 8;
    case DType::float16:
    case DType::bfloat16:
      return 2;
  }
  throw std::invalid_argument("moe_kernels: unknown element type");
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::float32:
      return "float32";
    case DType::float64:
      return "float64";
    case DType::float16:
      return "float16";
    case DType::bfloat16:
      return "bfloat16";
  }
  return "unknown";
}

void register_backend(Backend* backend) {
  if (!backend) return;
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& all = device_backends();
  if (std::find(all.begin(), all.end(), backend) == all.end()) all.push_back(backend);
}

std::vector<Backend*> registered_backends() {
  std::vector<Backend*> all{&cpu_backend()};
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto& devices = device_backends();
  all.insert(all.end(), devices.begin(), devices.end());
  return all;
}

Backend* backend_for(DeviceKind kind) {
  if (kind == DeviceKind::cpu) return &cpu_backend();
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (Backend* b : device_backends()) {
    if (b->device() == kind && !b->emulated()) return b;
  }
  return nullptr;
}

}  // namespace moe::kernels

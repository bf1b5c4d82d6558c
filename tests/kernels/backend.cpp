#include "backend.h"

#include <moe_kernels/threading.h>

#include <stdexcept>

namespace moe::kernels::test {
namespace {

template <typename T>
DispatchOps<T> cpu_dispatch_ops() {
  return {&dispatch_forward<T>, &combine_forward<T>, &dispatch_backward<T>, &combine_backward<T>};
}

template <typename T>
RoutingOps<T> cpu_routing_ops() {
  return {&topk_choices<T>, &priority_order<T>};
}

std::vector<Backend> make_backends() {
  std::vector<Backend> all;
  Backend cpu;
  cpu.name = "cpu";
  cpu.routing_f32 = cpu_routing_ops<float>();
  cpu.routing_f64 = cpu_routing_ops<double>();
  cpu.slot_locations = &slot_locations;
  cpu.build_slot_map = &build_slot_map;
  cpu.f32 = cpu_dispatch_ops<float>();
  cpu.f64 = cpu_dispatch_ops<double>();
  cpu.bf16 = cpu_dispatch_ops<bfloat16>();
  cpu.set_threads = &set_num_threads;
  all.push_back(std::move(cpu));
  // CUDA / HIP backends: add here under MOE_WITH_CUDA / MOE_WITH_HIP when a device is present.
  return all;
}

const std::vector<Backend>& backends() {
  static const std::vector<Backend> all = make_backends();
  return all;
}

}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& b : backends()) names.push_back(b.name);
  return names;
}

const Backend& backend(const std::string& name) {
  for (const auto& b : backends()) {
    if (b.name == name) return b;
  }
  throw std::invalid_argument("no kernel backend named " + name);
}

}  // namespace moe::kernels::test

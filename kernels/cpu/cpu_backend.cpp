// The CPU Backend: the kernels of cpu/routing.cpp and cpu/dispatch.cpp on host memory, run on the
// kernels' worker pool (cpu/threading.cpp). Every call finishes before it returns.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "cpu/dispatch.h"
#include "cpu/routing.h"
#include "cpu/threading.h"
#include "moe_kernels/backend.h"

namespace moe::kernels {
namespace {

template <typename T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}
template <typename T>
T* as(void* p) {
  return static_cast<T*>(p);
}

class CpuBackend final : public Backend {
 public:
  const char* name() const override { return "cpu"; }
  DeviceKind device() const override { return DeviceKind::cpu; }
  bool supports(DType) const override { return true; }

  void* allocate(size_t bytes) override {
    void* p = std::malloc(std::max<size_t>(bytes, 1));
    if (!p) throw std::bad_alloc();
    return p;
  }
  void release(void* p) override { std::free(p); }
  void copy_to_device(void* dst, const void* src, size_t bytes, Stream) override {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  void copy_to_host(void* dst, const void* src, size_t bytes, Stream) override {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  void synchronize(Stream) override {}

  void topk_choices(DType dt, const void* scores, int64_t N, int64_t E, int64_t k,
                    const float* bias, int32_t* idx, Stream) override {
    visit_score_dtype(dt, "topk_choices", [&](auto tag) {
      using T = decltype(tag);
      kernels::topk_choices<T>(as<T>(scores), N, E, k, bias, idx);
    });
  }
  void priority_order(DType dt, const void* priority, int64_t N, int64_t* order, Stream) override {
    visit_score_dtype(dt, "priority_order", [&](auto tag) {
      using T = decltype(tag);
      kernels::priority_order<T>(as<T>(priority), N, order);
    });
  }
  void slot_locations(const int32_t* idx, int64_t N, int64_t E, int64_t k,
                      const int64_t* token_order, int32_t* loc, int64_t* counts, Stream) override {
    kernels::slot_locations(idx, N, E, k, token_order, loc, counts);
  }
  void demand_from_counts(const int64_t* counts, int64_t E, int64_t k, int64_t* demand,
                          int64_t* max_demand, Stream) override {
    kernels::demand_from_counts(counts, E, k, demand);
    if (max_demand) *max_demand = E > 0 ? *std::max_element(demand, demand + E) : 0;
  }
  void kept_counts(const int64_t* demand, int64_t E, int64_t C, int64_t* kept, Stream) override {
    kernels::kept_counts(demand, E, C, kept);
  }
  void build_slot_map(const int32_t* idx, const int32_t* loc, int64_t N, int64_t E, int64_t k,
                      int64_t C, int64_t* slot_map, Stream) override {
    kernels::build_slot_map(idx, loc, N, E, k, C, slot_map);
  }

  void dispatch_forward(DType dt, const RoutingView& r, const void* x, const void* gates, int64_t M,
                        void* buffer, Stream) override {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      kernels::dispatch_forward<T>(r, as<T>(x), as<T>(gates), M, as<T>(buffer));
    });
  }
  void combine_forward(DType dt, const RoutingView& r, const void* buffer, const void* gates,
                       int64_t M, void* out, Stream) override {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      kernels::combine_forward<T>(r, as<T>(buffer), as<T>(gates), M, as<T>(out));
    });
  }
  void dispatch_backward(DType dt, const RoutingView& r, const void* grad_buffer, const void* x,
                         const void* gates, int64_t M, void* grad_x, void* grad_gates,
                         Stream) override {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      kernels::dispatch_backward<T>(r, as<T>(grad_buffer), as<T>(x), as<T>(gates), M, as<T>(grad_x),
                                    as<T>(grad_gates));
    });
  }
  void combine_backward(DType dt, const RoutingView& r, const void* grad_out, const void* buffer,
                        const void* gates, int64_t M, void* grad_buffer, void* grad_gates,
                        Stream) override {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      kernels::combine_backward<T>(r, as<T>(grad_out), as<T>(buffer), as<T>(gates), M,
                                   as<T>(grad_buffer), as<T>(grad_gates));
    });
  }

  void set_threads(int n) override { set_num_threads(n); }
  int threads() const override { return num_threads(); }
  void parallel_for(int64_t n, int64_t grain,
                    const std::function<void(int64_t, int64_t)>& fn) override {
    kernels::parallel_for(n, grain, fn);
  }
};

}  // namespace

Backend& cpu_backend() {
  static CpuBackend backend;
  return backend;
}

}  // namespace moe::kernels

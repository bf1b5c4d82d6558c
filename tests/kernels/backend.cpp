#include "backend.h"

#include <stdexcept>

#include "device_copy.h"

namespace moe::kernels::test {
namespace {

size_t count(int64_t n) {
  return static_cast<size_t>(n > 0 ? n : 0);
}

template <typename T>
size_t bytes(int64_t n) {
  return count(n) * sizeof(T);
}

// Every host pointer goes through a DeviceCopy; outputs are copied back after the call.
template <typename T>
DispatchOps<T> dispatch_ops(kernels::Backend* b) {
  const DType dt = dtype_of<T>();
  DispatchOps<T> ops;
  ops.dispatch_forward = [b, dt](const RoutingView& r, const T* x, const T* g, int64_t M, T* D) {
    DeviceRouting dr(*b, r);
    DeviceCopy dx(*b, x, bytes<T>(r.N * M)), dg(*b, g, bytes<T>(r.k * r.N)),
        dD(*b, D, bytes<T>(r.E * r.C * M));
    b->dispatch_forward(dt, dr.view(), dx.get<T>(), dg.get<T>(), M, dD.get<T>(), nullptr);
    dD.copy_back(D);
  };
  ops.combine_forward = [b, dt](const RoutingView& r, const T* Y, const T* g, int64_t M, T* out) {
    DeviceRouting dr(*b, r);
    DeviceCopy dY(*b, Y, bytes<T>(r.E * r.C * M)), dg(*b, g, bytes<T>(r.k * r.N)),
        dout(*b, out, bytes<T>(r.N * M));
    b->combine_forward(dt, dr.view(), dY.get<T>(), dg.get<T>(), M, dout.get<T>(), nullptr);
    dout.copy_back(out);
  };
  ops.dispatch_backward = [b, dt](const RoutingView& r, const T* gD, const T* x, const T* g,
                                  int64_t M, T* gx, T* gg) {
    DeviceRouting dr(*b, r);
    DeviceCopy dgD(*b, gD, bytes<T>(r.E * r.C * M)), dx(*b, x, bytes<T>(r.N * M)),
        dg(*b, g, bytes<T>(r.k * r.N)), dgx(*b, gx, bytes<T>(r.N * M)),
        dgg(*b, gg, bytes<T>(r.k * r.N));
    b->dispatch_backward(dt, dr.view(), dgD.get<T>(), dx.get<T>(), dg.get<T>(), M, dgx.get<T>(),
                         dgg.get<T>(), nullptr);
    dgx.copy_back(gx);
    dgg.copy_back(gg);
  };
  ops.combine_backward = [b, dt](const RoutingView& r, const T* go, const T* Y, const T* g,
                                 int64_t M, T* gY, T* gg) {
    DeviceRouting dr(*b, r);
    DeviceCopy dgo(*b, go, bytes<T>(r.N * M)), dY(*b, Y, bytes<T>(r.E * r.C * M)),
        dg(*b, g, bytes<T>(r.k * r.N)), dgY(*b, gY, bytes<T>(r.E * r.C * M)),
        dgg(*b, gg, bytes<T>(r.k * r.N));
    b->combine_backward(dt, dr.view(), dgo.get<T>(), dY.get<T>(), dg.get<T>(), M, dgY.get<T>(),
                        dgg.get<T>(), nullptr);
    dgY.copy_back(gY);
    dgg.copy_back(gg);
  };
  return ops;
}

template <typename T>
RoutingOps<T> routing_ops(kernels::Backend* b) {
  const DType dt = dtype_of<T>();
  RoutingOps<T> ops;
  ops.topk_choices = [b, dt](const T* scores, int64_t N, int64_t E, int64_t k, const float* bias,
                             int32_t* idx) {
    DeviceCopy ds(*b, scores, bytes<T>(N * E)), db(*b, bias, bytes<float>(E)),
        di(*b, idx, bytes<int32_t>(k * N));
    b->topk_choices(dt, ds.get<T>(), N, E, k, db.get<float>(), di.get<int32_t>(), nullptr);
    di.copy_back(idx);
  };
  ops.priority_order = [b, dt](const T* priority, int64_t N, int64_t* order) {
    DeviceCopy dp(*b, priority, bytes<T>(N)), dorder(*b, order, bytes<int64_t>(N));
    b->priority_order(dt, dp.get<T>(), N, dorder.get<int64_t>(), nullptr);
    dorder.copy_back(order);
  };
  return ops;
}

Backend wrap(kernels::Backend* b) {
  Backend t;
  t.name = b->name();
  t.device = b;
  t.routing_f32 = routing_ops<float>(b);
  t.routing_f64 = routing_ops<double>(b);
  t.slot_locations = [b](const int32_t* idx, int64_t N, int64_t E, int64_t k, const int64_t* order,
                         int32_t* loc, int64_t* counts) {
    DeviceCopy di(*b, idx, bytes<int32_t>(k * N)), dorder(*b, order, bytes<int64_t>(N)),
        dloc(*b, loc, bytes<int32_t>(k * N)), dcounts(*b, counts, bytes<int64_t>(k * E));
    b->slot_locations(di.get<int32_t>(), N, E, k, dorder.get<int64_t>(), dloc.get<int32_t>(),
                      dcounts.get<int64_t>(), nullptr);
    dloc.copy_back(loc);
    dcounts.copy_back(counts);
  };
  t.build_slot_map = [b](const int32_t* idx, const int32_t* loc, int64_t N, int64_t E, int64_t k,
                         int64_t C, int64_t* map) {
    DeviceCopy di(*b, idx, bytes<int32_t>(k * N)), dl(*b, loc, bytes<int32_t>(k * N)),
        dm(*b, map, bytes<int64_t>(E * C));
    b->build_slot_map(di.get<int32_t>(), dl.get<int32_t>(), N, E, k, C, dm.get<int64_t>(), nullptr);
    dm.copy_back(map);
  };
  t.demand_from_counts = [b](const int64_t* counts, int64_t E, int64_t k, int64_t* demand,
                             int64_t* max_demand) {
    DeviceCopy dc(*b, counts, bytes<int64_t>(k * E)), dd(*b, demand, bytes<int64_t>(E)),
        dm(*b, max_demand, sizeof(int64_t));
    b->demand_from_counts(dc.get<int64_t>(), E, k, dd.get<int64_t>(), dm.get<int64_t>(), nullptr);
    dd.copy_back(demand);
    dm.copy_back(max_demand);
  };
  t.kept_counts = [b](const int64_t* demand, int64_t E, int64_t C, int64_t* kept) {
    DeviceCopy dd(*b, demand, bytes<int64_t>(E)), dk(*b, kept, bytes<int64_t>(E));
    b->kept_counts(dd.get<int64_t>(), E, C, dk.get<int64_t>(), nullptr);
    dk.copy_back(kept);
  };
  t.f32 = dispatch_ops<float>(b);
  t.f64 = dispatch_ops<double>(b);
  t.f16 = dispatch_ops<float16>(b);
  t.bf16 = dispatch_ops<bfloat16>(b);
  t.set_threads = [b](int n) { b->set_threads(n); };
  return t;
}

const std::vector<Backend>& backends() {
  static const std::vector<Backend> all = [] {
    std::vector<Backend> wrapped;
    for (kernels::Backend* b : registered_backends()) wrapped.push_back(wrap(b));
    return wrapped;
  }();
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

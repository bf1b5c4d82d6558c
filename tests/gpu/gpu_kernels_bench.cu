// gpu_kernels_bench OUT_FILE: throughput of the CUDA backend's dispatch and combine (forward and
// backward) on one MoE layer's shapes (E = 8, k = 2, M = 4096, N = 16384, capacity factor 1.25),
// bfloat16 and float32, next to a device-to-device cudaMemcpyAsync moving as many bytes in the
// same run. A program, not a test: tests/gpu/run-device-checks.sh runs it on a GPU machine.
//
// "Bytes" of an operation: every tensor it reads or writes, counted once (the least memory
// traffic it can have). The copy moves half of that many bytes (it reads and writes each one),
// so both columns of GB/s count the same traffic and "% of copy" is how close the kernel comes
// to the copy engine of the same GPU. Times are medians of kReps runs after kWarmup, from
// cudaEvents on one stream.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "moe_kernels/backend.h"
#include "moe_kernels/capacity.h"
#include "moe_kernels/types.h"

namespace {

using moe::kernels::Backend;
using moe::kernels::DType;

constexpr int64_t kE = 8, kK = 2, kM = 4096, kN = 16384;
constexpr double kCapacityFactor = 1.25;
constexpr int kWarmup = 3, kReps = 25;

void check(cudaError_t error, const char* call) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(error));
  }
}

// One device allocation through the backend, released with it.
class DeviceBuffer {
 public:
  DeviceBuffer(Backend& b, size_t bytes) : b_(b), bytes_(bytes), ptr_(b.allocate(bytes)) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { b_.release(ptr_); }
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }

 private:
  Backend& b_;
  size_t bytes_;
  void* ptr_;
};

// A device buffer of n elements of `dtype` (float32 or bfloat16) filled with uniform values.
std::unique_ptr<DeviceBuffer> random_buffer(Backend& b, DType dtype, int64_t n, float lo, float hi,
                                            std::mt19937& rng, cudaStream_t stream) {
  std::uniform_real_distribution<float> dist(lo, hi);
  auto buffer = std::make_unique<DeviceBuffer>(b, static_cast<size_t>(n) * dtype_size(dtype));
  if (dtype == DType::float32) {
    std::vector<float> host(static_cast<size_t>(n));
    for (auto& v : host) v = dist(rng);
    b.copy_to_device(buffer->get(), host.data(), buffer->bytes(), stream);
    b.synchronize(stream);  // the host vector goes out of scope
  } else {
    std::vector<moe::kernels::bfloat16> host(static_cast<size_t>(n));
    for (auto& v : host) v = moe::kernels::to_bfloat16(dist(rng));
    b.copy_to_device(buffer->get(), host.data(), buffer->bytes(), stream);
    b.synchronize(stream);
  }
  return buffer;
}

// Median milliseconds of fn() on the stream.
template <typename Fn>
double median_ms(cudaStream_t stream, Fn&& fn) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < kWarmup; ++i) fn();
  std::vector<double> ms;
  for (int i = 0; i < kReps; ++i) {
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    fn();
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The routing plan of random float32 scores, built on the device by the backend's routing ops.
struct DeviceRouting {
  DeviceRouting(Backend& b, std::mt19937& rng, cudaStream_t stream)
      : C(moe::kernels::capacity(kCapacityFactor, kN, kE, kK, 0, 1)),
        scores(random_buffer(b, DType::float32, kN * kE, 0.f, 1.f, rng, stream)),
        idx(b, sizeof(int32_t) * kK * kN),
        loc(b, sizeof(int32_t) * kK * kN),
        counts(b, sizeof(int64_t) * kK * kE),
        demand(b, sizeof(int64_t) * kE),
        kept(b, sizeof(int64_t) * kE),
        slot_map(b, sizeof(int64_t) * kE * C) {}

  void build(Backend& b, cudaStream_t s) {
    b.topk_choices(DType::float32, scores->get(), kN, kE, kK, nullptr, idx.get<int32_t>(), s);
    b.slot_locations(idx.get<int32_t>(), kN, kE, kK, nullptr, loc.get<int32_t>(),
                     counts.get<int64_t>(), s);
    b.demand_from_counts(counts.get<int64_t>(), kE, kK, demand.get<int64_t>(), nullptr, s);
    b.kept_counts(demand.get<int64_t>(), kE, C, kept.get<int64_t>(), s);
    b.build_slot_map(idx.get<int32_t>(), loc.get<int32_t>(), kN, kE, kK, C, slot_map.get<int64_t>(),
                     s);
  }
  moe::kernels::RoutingView view() const {
    return {idx.get<int32_t>(), loc.get<int32_t>(), slot_map.get<int64_t>(), kN, kE, kK, C};
  }
  size_t bytes() const {
    return scores->bytes() + idx.bytes() + loc.bytes() + counts.bytes() + demand.bytes() +
           kept.bytes() + slot_map.bytes();
  }

  int64_t C;
  std::unique_ptr<DeviceBuffer> scores;
  DeviceBuffer idx, loc, counts, demand, kept, slot_map;
};

struct Row {
  std::string op, dtype;
  double bytes, ms, copy_ms;
};

std::string format_table(const std::vector<Row>& rows, const std::string& header) {
  std::ostringstream out;
  out << header;
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %-9s %10s %9s %9s %9s %9s %9s\n", "op", "dtype", "MB",
                "ms", "GB/s", "copy ms", "copy GB/s", "% of copy");
  out << line;
  for (const auto& r : rows) {
    const double gbs = r.bytes / (r.ms * 1e-3) / 1e9, copy_gbs = r.bytes / (r.copy_ms * 1e-3) / 1e9;
    std::snprintf(line, sizeof line, "%-22s %-9s %10.1f %9.3f %9.1f %9.3f %9.1f %8.1f%%\n",
                  r.op.c_str(), r.dtype.c_str(), r.bytes / 1e6, r.ms, gbs, r.copy_ms, copy_gbs,
                  100.0 * r.copy_ms / r.ms);
    out << line;
  }
  return out.str();
}

int run(const std::string& out_file) {
  Backend* b = moe::kernels::backend_for(moe::kernels::DeviceKind::cuda);
  if (!b) {
    int devices = 0;
    const cudaError_t error = cudaGetDeviceCount(&devices);
    throw std::runtime_error(std::string("no CUDA backend registered: cudaGetDeviceCount says ") +
                             (error == cudaSuccess ? std::to_string(devices) + " device(s)"
                                                   : cudaGetErrorString(error)));
  }
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  cudaDeviceProp prop{};
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");

  std::mt19937 rng(1);
  DeviceRouting routing(*b, rng, stream);
  routing.build(*b, stream);
  std::vector<int64_t> kept(kE);
  b->copy_to_host(kept.data(), routing.kept.get(), routing.kept.bytes(), stream);
  int64_t kept_total = 0;
  for (auto v : kept) kept_total += v;

  std::vector<Row> rows;
  // The copy baseline's buffers: half of the largest operation's bytes (combine_backward's).
  const size_t largest = static_cast<size_t>(kN * kM + 2 * kE * routing.C * kM + 2 * kK * kN) * 4;
  DeviceBuffer copy_src(*b, largest / 2 + 1), copy_dst(*b, largest / 2 + 1);
  const auto copy_ms = [&](size_t bytes) {
    const size_t half = bytes / 2;
    return median_ms(stream, [&] {
      check(cudaMemcpyAsync(copy_dst.get(), copy_src.get(), half, cudaMemcpyDeviceToDevice, stream),
            "cudaMemcpyAsync");
    });
  };
  const auto measure = [&](const char* op, const char* dtype, size_t bytes, auto&& fn) {
    const double ms = median_ms(stream, fn);
    rows.push_back({op, dtype, static_cast<double>(bytes), ms, copy_ms(bytes)});
  };

  measure("routing (5 ops)", "float32", routing.bytes(), [&] { routing.build(*b, stream); });

  for (DType dtype : {DType::bfloat16, DType::float32}) {
    const char* name = dtype_name(dtype);
    const size_t s = dtype_size(dtype);
    const size_t tokens = kN * kM, slots = static_cast<size_t>(kE * routing.C * kM),
                 gates_n = kK * kN;
    auto x = random_buffer(*b, dtype, static_cast<int64_t>(tokens), -1.f, 1.f, rng, stream);
    auto gates = random_buffer(*b, dtype, static_cast<int64_t>(gates_n), 0.f, 1.f, rng, stream);
    auto grad_out = random_buffer(*b, dtype, static_cast<int64_t>(tokens), -1.f, 1.f, rng, stream);
    DeviceBuffer buffer(*b, slots * s), out(*b, tokens * s), grad_buffer(*b, slots * s),
        grad_x(*b, tokens * s), grad_gates(*b, gates_n * s);
    const auto r = routing.view();

    measure("dispatch_forward", name, (tokens + slots + gates_n) * s, [&] {
      b->dispatch_forward(dtype, r, x->get(), gates->get(), kM, buffer.get(), stream);
    });
    measure("combine_forward", name, (slots + tokens + gates_n) * s, [&] {
      b->combine_forward(dtype, r, buffer.get(), gates->get(), kM, out.get(), stream);
    });
    measure("dispatch_backward", name, (slots + 2 * tokens + 2 * gates_n) * s, [&] {
      b->dispatch_backward(dtype, r, buffer.get(), x->get(), gates->get(), kM, grad_x.get(),
                           grad_gates.get(), stream);
    });
    measure("combine_backward", name, (tokens + 2 * slots + 2 * gates_n) * s, [&] {
      b->combine_backward(dtype, r, grad_out->get(), buffer.get(), gates->get(), kM,
                          grad_buffer.get(), grad_gates.get(), stream);
    });
  }
  b->synchronize(stream);
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");

  std::ostringstream header;
  header << "gpu_kernels_bench on " << prop.name << " (sm_" << prop.major << prop.minor
         << "): E=" << kE << " k=" << kK << " M=" << kM << " N=" << kN
         << " capacity_factor=" << kCapacityFactor << " C=" << routing.C << ", kept " << kept_total
         << " of " << kK * kN << " choices; median of " << kReps << " after " << kWarmup
         << " warm-up\n";
  const std::string table = format_table(rows, header.str());
  std::cout << table;
  if (!out_file.empty()) {
    std::ofstream file(out_file);
    if (!(file << table)) throw std::runtime_error("cannot write " + out_file);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::cerr << "usage: gpu_kernels_bench [OUT_FILE]\n";
    return 2;
  }
  try {
    return run(argc == 2 ? argv[1] : "");
  } catch (const std::exception& e) {
    std::cerr << "gpu_kernels_bench: " << e.what() << "\n";
    return 1;
  }
}

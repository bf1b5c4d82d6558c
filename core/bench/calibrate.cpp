// moe-train bench --calibrate: the order of the measurements, the profile file and the summary
// (docs/PLANNER.md, "Calibrating this machine").
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "bench/blas_threads.h"
#include "bench/calibrate.h"
#include "bench/calibrate_collectives.h"
#include "bench/calibrate_gemm.h"
#include "bench/calibrate_machine.h"
#include "bench/calibrate_profile_file.h"
#include "bench/calibrate_progress.h"
#include "moe_kernels/backend.h"
#include "runtime/device.h"
#include "train/config_input.h"
#include "train/engine_support.h"

namespace moe::bench {
namespace {

// Fails before minutes of measuring when the profile could not be written.
void check_writable(const std::string& path) {
  if (path.empty())
    throw train::InputError("bench --calibrate needs --json FILE (the profile to write)");
  const std::string probe = path + ".partial";
  {
    std::ofstream out(probe);
    if (!out) {
      throw train::InputError("--json " + path + ": cannot write a file there (" +
                              std::strerror(errno) + ")");
    }
  }
  std::filesystem::remove(probe);
}

void check_nprocs(const std::vector<int>& nprocs) {
  for (int n : nprocs) {
    if (n < 2 || n > 64) {
      throw train::InputError("--nproc " + std::to_string(n) +
                              ": the collectives need from 2 to 64 local ranks");
    }
  }
}

// The link between nodes that `bench --calibrate-link` measured across them: bad input, exit 2.
plan::LinkProfile read_inter_node(const std::string& path) {
  try {
    return read_link_file(path, "--inter-node " + path);
  } catch (const std::invalid_argument& e) {
    throw train::InputError(e.what());
  }
}

// `threads` on every pool a GEMM or an op can use, as the engine sets them for a rank.
void use_threads(int threads) {
  apply_thread_config({threads, blas_threads_controllable() ? threads : 0});
  kernels::cpu_backend().set_threads(threads);
}

// The threads the engine gives one local rank.
void use_one_rank_threads(const protocol::RunConfig& config) {
  use_threads(train::resolved_threads(config, 1));
}

std::string shape_text(const GemmShape& s) {
  return (s.expert_ffn ? std::string("expert FFN ") : std::string()) +
         (s.batch > 1 ? std::to_string(s.batch) + " x " : std::string()) + std::to_string(s.m) +
         "x" + std::to_string(s.k) + "x" + std::to_string(s.n) + " " + s.dtype +
         (s.ranks > 1 ? " (threads of 1 of " + std::to_string(s.ranks) + " ranks)" : "");
}

}  // namespace

int run_calibrate(const CalibrateOptions& given) {
  const auto start = std::chrono::steady_clock::now();
  CalibrateOptions options = given;
  check_writable(options.json_out);
  check_nprocs(options.nprocs);
  const std::optional<plan::LinkProfile> inter_node =
      options.inter_node.empty()
          ? std::nullopt
          : std::optional<plan::LinkProfile>(read_inter_node(options.inter_node));
  std::vector<protocol::RunConfig> configs;
  for (const auto& file : options.configs) configs.push_back(train::load_valid_config(file));
  if (configs.empty()) configs.emplace_back();
  const std::string device_kind = train::resolved_device(configs.front());
  if (device_kind == "cuda" && !runtime::cuda_unavailable_reason().empty())
    throw train::InputError("train.device \"cuda\": " + runtime::cuda_unavailable_reason());

  const MachineFacts machine = machine_facts();
  const ComputeDeviceFacts device = compute_device_facts(device_kind, machine);
  if (options.nprocs.empty()) {
    if (!device.device.is_cuda())
      options.nprocs = {2, 4};
    else
      options.nprocs = {static_cast<int>(std::max<int64_t>(2, device.count))};
  }
  use_one_rank_threads(configs.front());
  {  // LibTorch and every thread pool running: what each rank holds before the model
    torch::NoGradGuard no_grad;
    auto a = at::randn({64, 64}, at::TensorOptions().device(device.device));
    at::mm(a, a);
    runtime::synchronize(device.device);
  }
  plan::HardwareProfile profile;
  profile.name = "this machine (" + machine.hostname + ")";
  profile.description =
      machine.cpu_model + ", " + std::to_string(machine.cores) + " cores, calibrated " + utc_date();
  plan::DeviceProfile& d = profile.device;
  d.runtime_bytes = resident_bytes();
  d.name = device.name;
  d.devices_per_node = device.count;
  d.memory_bytes = device.memory_bytes;
  d.gemm_efficiency = 1.0;

  const auto shapes =
      calibration_shapes(configs, options.nprocs, options.quick, device.device.is_cuda());
  // Weights, in units of one GEMM shape with its backward (shapes of several ranks are timed
  // twice): the element-wise step two, a collectives child about 8 per two ranks, less with
  // --quick (the times behind them: docs/BENCHMARKS.md, "Figures the code's choices rest on").
  auto collectives_weight = [&](int n) { return (options.quick ? 3.0 : 8.0) * n / 2; };
  double weight = static_cast<double>(shapes.size()) + 3;
  for (int n : options.nprocs) weight += collectives_weight(n);
  CalibrationProgress progress("calibrate",
                               static_cast<int>(shapes.size() + 2 + options.nprocs.size()), weight);
  // The collectives first: their ranks are other processes, and a failure shows soonest.
  for (int n : options.nprocs) {
    progress.step("collectives between " + std::to_string(n) + " local ranks",
                  collectives_weight(n));
    profile.intra_node.push_back(run_collectives_child(n, options));
  }
  // A throwaway round first: right after the collectives' children the BLAS threads are cold,
  // and the first shape measured at a third of its rate in one run of three.
  if (!shapes.empty()) time_gemm(shapes.front(), device.device, options.quick);
  for (const auto& shape : shapes) {
    progress.step("GEMM " + shape_text(shape));
    const int all = train::resolved_threads(configs.front(), 1);
    if (shape.ranks > 1) use_threads(std::max<int>(1, all / static_cast<int>(shape.ranks)));
    d.gemm_rates.push_back(time_gemm(shape, device.device, options.quick));
    if (shape.ranks > 1) use_threads(all);
  }
  d.peak_flops_float32 = best_rate(d.gemm_rates, "float32");
  d.peak_flops_bfloat16 = best_rate(d.gemm_rates, "bfloat16");
  d.peak_flops_float64 = best_rate(d.gemm_rates, "float64");
  progress.step("element-wise bandwidth (large tensors)", 2);
  d.memory_bandwidth = elementwise_bandwidth(device.device, options.quick);
  progress.step("overhead of one small tensor operation");
  d.op_overhead_s = op_overhead_s(device.device, options.quick);
  if (inter_node) {
    profile.inter_node = *inter_node;
  } else {
    profile.inter_node = profile.intra_node.front();
    for (const auto& link : profile.intra_node) {
      if (link.ranks > profile.inter_node.ranks) profile.inter_node = link;
    }
    profile.inter_node.name = kUnmeasuredInterNode;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  finish_profile_file(profile, options.json_out, seconds, options.quick, std::cout);
  std::cout << "  took " << static_cast<int>(seconds + 0.5) << " s\n";
  return 0;
}

}  // namespace moe::bench

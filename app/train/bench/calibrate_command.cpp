// moe-train bench --calibrate: the order of the measurements, the profile file and the summary
// (docs/PLANNER.md, "Calibrating this machine").
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench/blas_threads.h"
#include "bench/calibrate.h"
#include "bench/calibrate_collectives.h"
#include "bench/calibrate_gemm.h"
#include "bench/calibrate_machine.h"
#include "bench/calibrate_progress.h"
#include "config_input.h"
#include "moe_kernels/backend.h"
#include "runtime/device.h"
#include "train/engine_support.h"

namespace moe::train {
namespace {

std::string utc_date() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

// Fails before minutes of measuring when the profile could not be written.
void check_writable(const std::string& path) {
  if (path.empty()) throw InputError("bench --calibrate needs --json FILE (the profile to write)");
  const std::string probe = path + ".partial";
  {
    std::ofstream out(probe);
    if (!out) {
      throw InputError("--json " + path + ": cannot write a file there (" + std::strerror(errno) +
                       ")");
    }
  }
  std::filesystem::remove(probe);
}

void check_nprocs(const std::vector<int>& nprocs) {
  for (int n : nprocs) {
    if (n < 2 || n > 64) {
      throw InputError("--nproc " + std::to_string(n) +
                       ": the collectives need from 2 to 64 local ranks");
    }
  }
}

// The threads the engine gives one local rank, on every pool a GEMM or an op can use.
void use_one_rank_threads(const protocol::RunConfig& config) {
  const int threads = resolved_threads(config, 1);
  apply_thread_config({threads, blas_threads_controllable() ? threads : 0});
  kernels::cpu_backend().set_threads(threads);
}

double best_rate(const std::vector<plan::GemmRate>& rates, const std::string& dtype) {
  double best = 0;
  for (const auto& r : rates) {
    if (r.dtype == dtype) best = std::max(best, r.flops_per_s);
  }
  return best;
}

std::string shape_text(const GemmShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n) + " " +
         s.dtype;
}

std::string figure(double value, const char* unit, double scale = 1e9, const char* prefix = "G") {
  std::ostringstream out;
  out << std::fixed << std::setprecision(value / scale >= 100 ? 0 : 2) << value / scale << " "
      << prefix << unit;
  return out.str();
}

// Four significant digits: the measurements are not steadier than that.
double rounded(double x) {
  if (x <= 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 3);
  return std::round(x / scale) * scale;
}

void round_figures(plan::HardwareProfile& p) {
  auto& d = p.device;
  for (double* x : {&d.peak_flops_float32, &d.peak_flops_bfloat16, &d.peak_flops_float64,
                    &d.memory_bandwidth, &d.runtime_bytes, &d.op_overhead_s})
    *x = rounded(*x);
  for (auto& r : d.gemm_rates) r.flops_per_s = rounded(r.flops_per_s);
  auto round_link = [](plan::LinkProfile& l) {
    for (double* x : {&l.all_to_all_latency_s, &l.all_to_all_bandwidth, &l.all_reduce_latency_s,
                      &l.all_reduce_bandwidth})
      *x = rounded(*x);
  };
  for (auto& l : p.intra_node) round_link(l);
  round_link(p.inter_node);
}

void write_profile(const plan::HardwareProfile& profile, const std::string& path, double seconds,
                   bool quick) {
  std::ostringstream text;
  text << "// Measured by `moe-train bench --calibrate" << (quick ? " --quick" : "") << "` on "
       << utc_date() << " in " << static_cast<int>(seconds + 0.5) << " s.\n"
       << "// A measured profile has no datasheet peak: each peak_flops_* is the best GEMM rate\n"
       << "// measured here in that dtype, and gemm_efficiency is 1 because gemm_rates are\n"
       << "// measured rates. inter_node is not measured (one node): a copy of the intra-node\n"
       << "// figures of the most ranks.\n"
       << plan::profileJson(profile);
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial);
    if (!(out << text.str())) throw InputError("--json " + path + ": cannot write");
  }
  std::filesystem::rename(partial, path);
}

void print_summary(std::ostream& out, const plan::HardwareProfile& p, const std::string& path) {
  const auto& d = p.device;
  out << p.name << ": profile written to " << path << "\n";
  out << "  device            " << d.name << ", " << d.devices_per_node << " per node, "
      << figure(d.memory_bytes, "B") << "\n";
  for (const char* dtype : {"float32", "bfloat16", "float64"}) {
    const double best = best_rate(d.gemm_rates, dtype);
    if (best > 0)
      out << "  best GEMM " << std::left << std::setw(9) << dtype << std::right
          << figure(best, "FLOP/s") << "\n";
  }
  out << "  GEMM rates        " << d.gemm_rates.size() << " shapes\n"
      << "  memory bandwidth  " << figure(d.memory_bandwidth, "B/s") << "\n"
      << "  op overhead       " << figure(d.op_overhead_s, "s", 1e-6, "u") << "\n"
      << "  runtime           " << figure(d.runtime_bytes, "B", 1e6, "M") << "\n";
  for (const auto& l : p.intra_node) {
    out << "  " << l.name << ": all_to_all " << figure(l.all_to_all_latency_s, "s", 1e-6, "u")
        << " + " << figure(l.all_to_all_bandwidth, "B/s") << ", all_reduce "
        << figure(l.all_reduce_latency_s, "s", 1e-6, "u") << " + "
        << figure(l.all_reduce_bandwidth, "B/s") << "\n";
  }
}

}  // namespace

int run_calibrate(const CalibrateOptions& given) {
  const auto start = std::chrono::steady_clock::now();
  CalibrateOptions options = given;
  check_writable(options.json_out);
  check_nprocs(options.nprocs);
  std::vector<protocol::RunConfig> configs;
  for (const auto& file : options.configs) configs.push_back(load_valid_config(file));
  if (configs.empty()) configs.emplace_back();
  const std::string device_kind = resolved_device(configs.front());
  if (device_kind == "cuda" && !cuda_unavailable_reason().empty())
    throw InputError("train.device \"cuda\": " + cuda_unavailable_reason());

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
    synchronize(device.device);
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
  // Weights: a GEMM shape is one unit (about 0.3 s), the copy two, a collectives child about
  // 30 per two ranks (their start, 12 measurements; fewer with --quick).
  auto collectives_weight = [&](int n) { return (options.quick ? 10.0 : 30.0) * n / 2; };
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
  for (const auto& shape : shapes) {
    progress.step("GEMM " + shape_text(shape));
    d.gemm_rates.push_back(time_gemm(shape, device.device, options.quick));
  }
  d.peak_flops_float32 = best_rate(d.gemm_rates, "float32");
  d.peak_flops_bfloat16 = best_rate(d.gemm_rates, "bfloat16");
  d.peak_flops_float64 = best_rate(d.gemm_rates, "float64");
  progress.step("memory bandwidth (a large copy)", 2);
  d.memory_bandwidth = copy_bandwidth(device.device, options.quick);
  progress.step("overhead of one small tensor operation");
  d.op_overhead_s = op_overhead_s(device.device, options.quick);
  profile.inter_node = profile.intra_node.front();
  for (const auto& link : profile.intra_node) {
    if (link.ranks > profile.inter_node.ranks) profile.inter_node = link;
  }
  profile.inter_node.name = "(not measured: one node; copy of the intra-node figures)";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  round_figures(profile);
  write_profile(profile, options.json_out, seconds, options.quick);
  print_summary(std::cout, profile, options.json_out);
  std::cout << "  took " << static_cast<int>(seconds + 0.5) << " s\n";
  return 0;
}

}  // namespace moe::train

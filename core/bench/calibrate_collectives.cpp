#include "bench/calibrate_collectives.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "bench/calibrate_progress.h"
#include "bench/timing.h"
#include "launch/rank_layout.h"
#include "moe_kernels/backend.h"
#include "plan/profile_fields.h"
#include "runtime/device.h"
#include "train/config_input.h"
#include "train/engine_support.h"
#include "train/output_file.h"

namespace moe::bench {
namespace {

using clock_type = std::chrono::steady_clock;

std::string size_text(int64_t bytes) {
  if (bytes >= (1 << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

// The slowest rank's value: what a collective waits for.
double max_over_ranks(dist::ProcessGroup& group, const at::Device& device, double value) {
  auto t = at::full({1}, value, at::TensorOptions().dtype(at::kDouble).device(device));
  group.all_reduce_max(t);
  return t.cpu().item<double>();
}

// Mean seconds of one collective on every rank after a synchronised start, warm-up first.
// Every rank runs the same number of repeats (decided from the slowest warm-up). The mean, not
// the median: loopback Gloo's all-to-all switches between two speeds from one call to the next,
// and a step pays the mix; a median took one mode or the other (docs/BENCHMARKS.md, "Figures
// the code's choices rest on").
double time_collective(dist::ProcessGroup& group, const at::Device& device, bool quick,
                       const std::function<void()>& op) {
  auto once = [&] {
    group.barrier();
    const auto t0 = clock_type::now();
    op();
    runtime::synchronize(device);
    return std::chrono::duration<double>(clock_type::now() - t0).count();
  };
  once();
  const double warm = max_over_ranks(group, device, once());
  const double target_s = quick ? 0.03 : 0.6;
  const int repeats =
      std::clamp(static_cast<int>(target_s / std::max(warm, 1e-6)), quick ? 5 : 10, 40);
  std::vector<double> seconds;
  for (int i = 0; i < repeats; ++i) seconds.push_back(once());
  const double mean =
      std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(seconds.size());
  return max_over_ranks(group, device, mean);
}

std::string link_json(const plan::LinkProfile& l) {
  return nlohmann::json{{"name", l.name},
                        {"ranks", l.ranks},
                        {"all_to_all_latency_s", l.all_to_all_latency_s},
                        {"all_to_all_bandwidth", l.all_to_all_bandwidth},
                        {"all_reduce_latency_s", l.all_reduce_latency_s},
                        {"all_reduce_bandwidth", l.all_reduce_bandwidth}}
      .dump(2);
}

// Latency and bandwidth from (bytes per rank, seconds): the fitted line where its slope is
// positive, else the largest message's rate.
std::pair<double, double> latency_and_bandwidth(const std::vector<double>& bytes,
                                                const std::vector<double>& seconds) {
  const LineFit fit = fit_line(bytes, seconds);
  const double latency = fit.intercept > 0 ? fit.intercept : seconds.front();
  const double bandwidth = fit.slope > 0 ? 1.0 / fit.slope : bytes.back() / seconds.back();
  return {latency, bandwidth};
}

}  // namespace

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& t) {
  const double count = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i], sy += t[i], sxx += x[i] * x[i], sxy += x[i] * t[i];
  }
  const double det = count * sxx - sx * sx;
  if (x.size() < 2 || det <= 0) return {t.empty() ? 0 : t.front(), 0};
  LineFit fit;
  fit.slope = (count * sxy - sx * sy) / det;
  // The faster of the two smallest messages (a shared machine's noise only adds time), whole:
  // their bytes at the large messages' rate would take more than they did.
  fit.intercept = std::min(t[0], t[1]);
  return fit;
}

plan::LinkProfile measure_collectives(dist::ProcessGroup& group, const at::Device& device,
                                      bool quick, int64_t nodes) {
  torch::NoGradGuard no_grad;
  const int64_t n = group.world_size();
  const std::vector<int64_t> sizes =
      quick ? std::vector<int64_t>{4 << 10, 256 << 10, 4 << 20}
            : std::vector<int64_t>{4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
  CalibrationProgress progress("collectives, " + std::to_string(n) + " ranks",
                               static_cast<int>(2 * sizes.size()), 2.0 * sizes.size());
  std::vector<double> a2a_bytes, a2a_s, ar_bytes, ar_s;
  for (const int64_t size : sizes) {
    const int64_t elements = std::max<int64_t>(1, size / 4 / n) * n;
    const double buffer = 4.0 * static_cast<double>(elements);
    auto in = at::zeros({n, elements / n}, at::TensorOptions().dtype(at::kFloat).device(device));
    if (group.rank() == 0) progress.step("all_to_all, " + size_text(size) + " per rank");
    a2a_s.push_back(time_collective(group, device, quick, [&] { group.all_to_all(in); }));
    a2a_bytes.push_back(buffer * static_cast<double>(n - 1) / static_cast<double>(n));
    if (group.rank() == 0) progress.done(a2a_s.back());
    if (group.rank() == 0) progress.step("all_reduce_sum, " + size_text(size) + " per rank");
    ar_s.push_back(time_collective(group, device, quick, [&] { group.all_reduce_sum(in); }));
    ar_bytes.push_back(2.0 * buffer * static_cast<double>(n - 1) / static_cast<double>(n));
    if (group.rank() == 0) progress.done(ar_s.back());
  }
  plan::LinkProfile link;
  const bool nccl = device.is_cuda() && group.backend_name().find("nccl") != std::string::npos;
  const std::string backend = nccl ? "NCCL" : "Gloo";
  link.name = nodes > 1 ? backend + ", " + std::to_string(n) + " ranks on " +
                              std::to_string(nodes) + " nodes"
                        : "loopback " + backend + ", " + std::to_string(n) + " ranks";
  link.ranks = n;
  std::tie(link.all_to_all_latency_s, link.all_to_all_bandwidth) =
      latency_and_bandwidth(a2a_bytes, a2a_s);
  std::tie(link.all_reduce_latency_s, link.all_reduce_bandwidth) =
      latency_and_bandwidth(ar_bytes, ar_s);
  return link;
}

int run_calibrate_collectives(const CalibrateOptions& options) {
  const auto layout = launch::rank_layout_from_environment();
  if (layout.world_size < 2) {
    throw train::InputError(
        "bench --calibrate-link: runs as one of 2 or more ranks under a launcher (moe-train "
        "launch --nnodes N ... -- bench --calibrate-link --json FILE on each node)");
  }
  if (options.json_out.empty()) throw train::InputError("bench --calibrate-link needs --json");
  const protocol::RunConfig config = options.configs.empty()
                                         ? protocol::RunConfig{}
                                         : train::load_valid_config(options.configs.front());
  // The threads the engine gives each of these local ranks.
  const int threads = train::resolved_threads(config, layout.local_world_size);
  at::set_num_threads(threads);
  kernels::cpu_backend().set_threads(threads);
  const at::Device device =
      runtime::compute_device(train::resolved_device(config), layout.local_rank);
  dist::ProcessGroup group(layout, config.parallel.backend, std::chrono::seconds(120));
  const int64_t nodes = std::max<int64_t>(1, layout.world_size / layout.local_world_size);
  const plan::LinkProfile link = measure_collectives(group, device, options.quick, nodes);
  if (group.rank() == 0) {
    train::write_file_whole(options.json_out, link_json(link) + "\n", "--json");
  }
  group.barrier();
  return 0;
}

plan::LinkProfile run_collectives_child(int nproc, const CalibrateOptions& options) {
  const std::string out = options.json_out + ".collectives-" + std::to_string(nproc) + ".json";
  std::vector<std::string> args{std::filesystem::read_symlink("/proc/self/exe").string(),
                                "launch",
                                "--nproc-per-node",
                                std::to_string(nproc),
                                "--",
                                "bench",
                                "--calibrate-link",
                                "--json",
                                out};
  if (options.quick) args.push_back("--quick");
  if (!options.configs.empty()) args.insert(args.end(), {"--config", options.configs.front()});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("collectives: cannot make a pipe");
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("collectives: cannot start moe-train launch");
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  // The ranks' output passes through as it comes; its tail explains a failure.
  std::string tail;
  char chunk[4096];
  for (ssize_t got; (got = read(fds[0], chunk, sizeof chunk)) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    std::cerr.write(chunk, got).flush();
    tail.append(chunk, static_cast<size_t>(got));
    if (tail.size() > 4000) tail.erase(0, tail.size() - 4000);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ignored;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::filesystem::remove(out, ignored);
    const std::string how = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    throw std::runtime_error("the collectives on " + std::to_string(nproc) +
                             " local ranks failed (" + how + "); their output ended:\n" + tail);
  }
  const plan::LinkProfile link =
      read_link_file(out, "collectives of " + std::to_string(nproc) + " ranks");
  std::filesystem::remove(out, ignored);
  return link;
}

plan::LinkProfile read_link_file(const std::string& path, const std::string& where) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(where + ": cannot read it (" + std::strerror(errno) + ")");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false, true);
  if (doc.is_discarded() || !doc.is_object())
    throw std::invalid_argument(where +
                                ": not a link file (JSON written by bench --calibrate-link)");
  return plan::link_from_json(doc, where);
}

}  // namespace moe::bench

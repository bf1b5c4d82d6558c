// moe-train bench: the layer benchmark over a sweep of configs (docs/PROTOCOL.md, BENCHMARKS.md).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench_report.h"
#include "bench/calibrate.h"
#include "bench/layer_benchmark.h"
#include "commands.h"
#include "protocol/bench_lines.h"
#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "train/config_input.h"

namespace moe::train {

namespace {

struct BenchArgs {
  std::vector<std::string> configs;  // one; several only with --calibrate
  std::string json_out;
  std::vector<std::string> overrides, sweeps;
  int iters = 5;
  double min_seconds = 1.0;
  bool no_naive = false;
  int blas_threads = 0;
  bool paired = false;  // the i-th values of every sweep together, instead of every combination
  bool jsonl = false;   // one JSON line per finished config on stdout, the table on stderr
  bool calibrate = false, calibrate_link = false, quick = false;  // bench/calibrate.h
  std::vector<int> nprocs;
  std::string inter_node;
};

struct Sweep {
  std::string key;
  std::vector<std::string> values;
};

Sweep parse_sweep(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InputError("--sweep '" + text + "': expected key.path=v1,v2,...");
  }
  Sweep s{text.substr(0, eq), {}};
  std::string rest = text.substr(eq + 1);
  for (size_t start = 0;;) {
    const auto comma = rest.find(',', start);
    s.values.push_back(rest.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return s;
}

// Every combination of the sweeps' values, as lists of key=value assignments.
std::vector<std::vector<std::string>> combinations(const std::vector<Sweep>& sweeps) {
  std::vector<std::vector<std::string>> out{{}};
  for (const auto& sweep : sweeps) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : out) {
      for (const auto& value : sweep.values) {
        next.push_back(prefix);
        next.back().push_back(sweep.key + "=" + value);
      }
    }
    out = std::move(next);
  }
  return out;
}

// The i-th values of every sweep together: all sweeps must have the same number of values.
std::vector<std::vector<std::string>> pairs(const std::vector<Sweep>& sweeps) {
  if (sweeps.empty()) return {{}};
  const size_t n = sweeps.front().values.size();
  for (const auto& sweep : sweeps) {
    if (sweep.values.size() != n) {
      throw InputError("--pair: every --sweep needs the same number of values, but " +
                       sweeps.front().key + " has " + std::to_string(n) + " and " + sweep.key +
                       " has " + std::to_string(sweep.values.size()));
    }
  }
  std::vector<std::vector<std::string>> out(n);
  for (size_t i = 0; i < n; ++i) {
    for (const auto& sweep : sweeps) out[i].push_back(sweep.key + "=" + sweep.values[i]);
  }
  return out;
}

void check_distinct_keys(const std::vector<Sweep>& sweeps) {
  for (size_t i = 0; i < sweeps.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (sweeps[i].key == sweeps[j].key) {
        throw InputError("--sweep " + sweeps[i].key + " is given twice: list every value once");
      }
    }
  }
}

protocol::RunConfig resolve(const nlohmann::json& base, const std::vector<std::string>& sets,
                            const std::string& where) {
  auto json = base;
  for (const auto& assignment : sets) protocol::apply_override(json, assignment);
  protocol::RunConfig config;
  auto problems = protocol::check(json, &config);
  if (problems.empty()) return config;
  std::string message;
  for (const auto& p : problems) message += where + ": " + protocol::format_problem(p) + "\n";
  message.pop_back();
  throw InputError(message);
}

nlohmann::json swept_values(const protocol::RunConfig& config, const std::vector<Sweep>& sweeps) {
  const auto json = protocol::to_json(config);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& s : sweeps) {
    auto ptr = "/" + s.key;
    for (auto& c : ptr) c = c == '.' ? '/' : c;
    out[s.key] = json.at(nlohmann::json::json_pointer(ptr));
  }
  return out;
}

int run_bench(const BenchArgs& args) {
  if (args.configs.size() > 1)
    throw InputError("--config is given " + std::to_string(args.configs.size()) +
                     " times: bench takes one (several only with --calibrate)");
  if (!args.nprocs.empty() || args.quick || !args.inter_node.empty())
    throw InputError("--nproc, --quick and --inter-node go with --calibrate");
  const std::string config_file = args.configs.empty() ? "" : args.configs.front();
  nlohmann::json base = config_file.empty() ? protocol::to_json(protocol::RunConfig{})
                                            : protocol::read_config_json_file(config_file);
  const std::string where = config_file.empty() ? "bench config" : config_file;
  std::vector<Sweep> sweeps;
  for (const auto& text : args.sweeps) sweeps.push_back(parse_sweep(text));
  check_distinct_keys(sweeps);
  // Resolve every point first so a typo in the last value fails before minutes of measuring.
  std::vector<protocol::RunConfig> points;
  for (auto sets : args.paired ? pairs(sweeps) : combinations(sweeps)) {
    sets.insert(sets.begin(), args.overrides.begin(), args.overrides.end());
    points.push_back(resolve(base, sets, where));
  }
  if (!args.json_out.empty()) {
    // Fail before minutes of measuring, and without leaving an empty file behind.
    auto dir = std::filesystem::absolute(args.json_out).parent_path();
    if (!std::filesystem::is_directory(dir)) {
      throw InputError("--json " + args.json_out + ": directory " + dir.string() +
                       " does not exist");
    }
  }
  bench::LayerBenchOptions options;
  options.timing.min_iters = args.iters;
  options.timing.min_seconds = args.min_seconds;
  options.naive = !args.no_naive;
  options.blas_threads = args.blas_threads;

  // With --jsonl, stdout carries only JSON lines (a tool reads them as they come); the table
  // people read goes to stderr.
  std::ostream& table_out = args.jsonl ? std::cerr : std::cout;
  if (args.jsonl) {
    std::cout << protocol::bench_start_line({static_cast<int64_t>(points.size()),
                                             args.paired ? "paired" : "grid", args.iters,
                                             args.min_seconds, !args.no_naive})
              << std::endl;
  }
  std::vector<bench::LayerBenchResult> results;
  const auto start = std::chrono::steady_clock::now();
  auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  for (size_t i = 0; i < points.size(); ++i) {
    std::cerr << "bench [" << i + 1 << "/" << points.size() << "] "
              << swept_values(points[i], sweeps).dump();
    if (i > 0) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cerr << "  (ETA " << static_cast<int>(elapsed / i * (points.size() - i)) << " s)";
    }
    std::cerr << std::endl;
    const auto config_start = std::chrono::steady_clock::now();
    results.push_back(bench::benchmark_layer(points[i], options));
    results.back().swept = swept_values(points[i], sweeps);
    if (args.jsonl) {
      std::cout << protocol::bench_config_line(bench::bench_json(results.back()),
                                               static_cast<int64_t>(i),
                                               static_cast<int64_t>(points.size()),
                                               seconds_since(config_start))
                << std::endl;  // flushed: the reader shows progress per config
    }
  }
  if (args.jsonl) {
    std::cout << protocol::bench_end_line(static_cast<int64_t>(points.size()), seconds_since(start))
              << std::endl;
  }
  const auto c = resolve(base, args.overrides, where);
  table_out << "MoE layer: experts " << c.moe.experts << ", top_k " << c.moe.top_k << ", dim "
            << c.model.dim << ", hidden " << c.moe.hidden << ", capacity_factor "
            << c.moe.capacity_factor << ", " << protocol::enum_name(c.train.dtype)
            << ", tokens = batch " << c.train.batch_size << " x seq_len " << c.model.seq_len
            << (sweeps.empty() ? "" : ", then the swept keys below") << "\n";
  bench::print_bench_table(table_out, results);
  if (!args.json_out.empty()) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& r : results) array.push_back(bench::bench_json(r));
    std::ofstream out(args.json_out);
    if (!(out << array.dump(2) << "\n"))
      throw InputError("--json " + args.json_out + ": cannot write");
  }
  return kExitOk;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench", "Benchmark one MoE layer: efficiency, routing share, naive baseline");
  auto args = std::make_shared<BenchArgs>();
  cmd->add_option("--config", args->configs,
                  "RunConfig JSON (default: the built-in defaults); with --calibrate repeatable");
  cmd->add_option("--set", args->overrides, "Override a key: key.path=value (repeatable)");
  cmd->add_option("--sweep", args->sweeps,
                  "key.path=v1,v2,... (repeatable; all combinations, or see --pair)");
  cmd->add_flag("--pair", args->paired,
                "Pair the sweeps instead: the i-th values of every --sweep make config i (all "
                "sweeps the same length)");
  cmd->add_flag("--jsonl", args->jsonl,
                "Print one JSON line per finished config on stdout (and a start and an end "
                "line); the table goes to stderr");
  cmd->add_option("--json", args->json_out, "Write the figures as a JSON array to this file");
  cmd->add_option("--iters", args->iters, "Minimum timed iterations per measurement")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--min-time", args->min_seconds, "Minimum seconds per measurement")
      ->check(CLI::Range(0.0, 600.0));
  cmd->add_flag("--no-naive", args->no_naive, "Skip the naive GShard baseline");
  cmd->add_option("--blas-threads", args->blas_threads,
                  "Threads of the expert GEMMs: the BLAS's own, or LibTorch's pool where the "
                  "BLAS follows it (MKL) (default 0: the fastest of 1 and every core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--calibrate", args->calibrate,
                "Measure this machine into a planner profile (--json FILE; docs/PLANNER.md)");
  cmd->add_option("--nproc", args->nprocs,
                  "With --calibrate: local ranks for the collectives, 2 to 64 (repeatable; "
                  "default 2 and 4 on the CPU, every GPU on CUDA)");
  cmd->add_flag("--quick", args->quick, "With --calibrate: fewer shapes, sizes and repeats");
  cmd->add_option("--inter-node", args->inter_node,
                  "With --calibrate: the link between nodes, a file that --calibrate-link wrote "
                  "across them (default: a copy of the intra-node figures)");
  cmd->add_flag("--calibrate-link", args->calibrate_link,
                "One rank of a collectives measurement over every rank of its launcher: "
                "moe-train launch --nnodes N ... -- bench --calibrate-link --json FILE on each "
                "node measures the link between them (rank 0 writes FILE, for --inter-node)");
  return [args]() {
    if (!args->calibrate && !args->calibrate_link) return run_bench(*args);
    if (args->calibrate && args->calibrate_link)
      throw InputError("--calibrate and --calibrate-link: one or the other");
    if (!args->overrides.empty() || !args->sweeps.empty())
      throw InputError("--calibrate takes --config files, not --set or --sweep");
    const bench::CalibrateOptions options{args->configs, args->json_out, args->nprocs, args->quick,
                                          args->inter_node};
    return args->calibrate_link ? bench::run_calibrate_collectives(options)
                                : bench::run_calibrate(options);
  };
}

}  // namespace moe::train

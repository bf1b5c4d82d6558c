#include "distributed_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

namespace moe::test {

namespace {

void expect_close(double expected, double actual, const std::string& what) {
  const double scale = std::max({1.0, std::fabs(expected), std::fabs(actual)});
  EXPECT_LE(std::fabs(expected - actual), 1e-9 * scale)
      << what << ": expected " << expected << ", got " << actual;
}

void expect_close_fields(const nlohmann::json& a, const nlohmann::json& b,
                         const std::vector<std::string>& keys, const std::string& where) {
  for (const auto& k : keys) {
    if (!a.contains(k)) continue;
    if (a[k].is_array()) {
      ASSERT_EQ(a[k].size(), b[k].size()) << where << " " << k;
      for (size_t i = 0; i < a[k].size(); ++i) {
        expect_close(a[k][i].get<double>(), b[k][i].get<double>(),
                     where + " " + k + "[" + std::to_string(i) + "]");
      }
    } else {
      expect_close(a[k].get<double>(), b[k].get<double>(), where + " " + k);
    }
  }
}

void expect_same_events(const RankRun& a, const RankRun& b, const std::string& type,
                        const std::vector<std::string>& keys) {
  const auto ea = events_of_type(a.events, type), eb = events_of_type(b.events, type);
  ASSERT_EQ(ea.size(), eb.size()) << type << " events";
  for (size_t i = 0; i < ea.size(); ++i) {
    const std::string where = type + " #" + std::to_string(i) + " (step " +
                              std::to_string(ea[i].value("step", int64_t{-1})) + ")";
    expect_close_fields(ea[i], eb[i], keys, where);
  }
}

}  // namespace

std::vector<std::string> launch_args(int ranks, const std::vector<std::string>& run_args) {
  std::vector<std::string> args{"launch", "--nproc-per-node", std::to_string(ranks), "--"};
  args.insert(args.end(), run_args.begin(), run_args.end());
  return args;
}

RankRun run_on_ranks(const TempDir& dir, const nlohmann::json& config, int ranks,
                     const std::string& name, const std::vector<std::string>& extra_args) {
  RankRun run;
  run.dir = dir.file(name);
  // The config says how many ranks it is laid out for; on one process r has no meaning.
  nlohmann::json laid_out = config;
  laid_out["parallel"]["nproc"] = ranks;
  if (ranks == 1) laid_out["parallel"].erase("adaptive_r");
  std::vector<std::string> args{"run", "--config", write_config(dir, name + ".json", laid_out),
                                "--run-dir", run.dir};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto result = run_moe_train(ranks == 1 ? args : launch_args(ranks, args));
  run.exit_status = result.exit_status;
  run.out = result.out;
  run.err = result.err;
  EXPECT_EQ(run.exit_status, 0) << name << " on " << ranks << " ranks:\n" << run.err;
  run.events = events_of(run.out);
  return run;
}

void expect_same_training(const RankRun& expected, const RankRun& actual) {
  expect_same_events(expected, actual, "step",
                     {"step", "loss", "task_loss", "aux_loss", "z_loss", "grad_norm", "tokens"});
  expect_same_events(
      expected, actual, "expert_load",
      {"counts", "kept", "capacity", "dropped_frac", "cv", "max_over_mean", "load_entropy",
       "router_entropy", "dead_experts", "importance", "l_aux", "z_loss"});
  expect_same_events(expected, actual, "eval", {"loss", "accuracy"});
}

int logged_pid(const std::string& log) {
  std::smatch m;
  static const std::regex pid(R"(rank \d+ of \d+ on .* \(pid (\d+)\))");
  return std::regex_search(log, m, pid) ? std::stoi(m[1]) : -1;
}

}  // namespace moe::test

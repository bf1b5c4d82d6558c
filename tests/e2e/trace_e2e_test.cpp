// telemetry.trace: trace.json in the Chrome trace format that Perfetto opens, one process per
// rank ("rank <i> (<host>)"), with each rank's spans and counters (tokens/s, dropped share).
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <map>
#include <set>

#include "distributed_fixtures.h"

namespace moe::test {
namespace {

struct TraceSummary {
  std::map<int, std::string> process_names;              // pid -> name
  std::map<int, std::set<std::string>> spans, counters;  // pid -> names
  std::map<int, std::set<std::string>> counter_series;   // pid -> "<name> <series>"
};

TraceSummary summarize(const nlohmann::json& trace) {
  TraceSummary s;
  for (const auto& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph");
    const int pid = e.at("pid");
    if (ph == "M" && e.at("name") == "process_name") {
      s.process_names[pid] = e.at("args").at("name");
    } else if (ph == "X") {
      EXPECT_GE(e.at("ts").get<int64_t>(), 0);
      EXPECT_GE(e.at("dur").get<int64_t>(), 0);
      s.spans[pid].insert(e.at("name").get<std::string>());
    } else if (ph == "C") {
      EXPECT_GE(e.at("ts").get<int64_t>(), 0);
      s.counters[pid].insert(e.at("name").get<std::string>());
      for (const auto& [series, value] : e.at("args").items()) {
        EXPECT_TRUE(value.is_number()) << e.dump();
        s.counter_series[pid].insert(e.at("name").get<std::string>() + " " + series);
      }
    }
  }
  return s;
}

nlohmann::json traced_config() {
  nlohmann::json c = tiny_config("lm");  // two MoE layers
  c["moe"]["capacity_factor"] = 1.0;
  c["train"]["steps"] = 3;
  c["telemetry"]["trace"] = true;
  return c;
}

// trace.json of traced_config() run in dir/<name> on `ranks` ranks; its time unit is checked.
nlohmann::json traced_run(const TempDir& dir, int ranks, const std::string& name) {
  const RankRun run = run_on_ranks(dir, traced_config(), ranks, name);
  const std::string text = read_file(run.dir + "/trace.json");
  EXPECT_FALSE(text.empty()) << "no trace.json in " << run.dir;
  nlohmann::json trace = nlohmann::json::parse(text);  // throws, failing the test, if unparsable
  EXPECT_EQ(trace.at("displayTimeUnit"), "ms");
  return trace;
}

TEST(TraceRun, OneProcessIsRankZeroWithCounters) {
  TempDir dir;
  TraceSummary s = summarize(traced_run(dir, 1, "one"));
  ASSERT_EQ(s.process_names.size(), 1u);
  EXPECT_EQ(s.process_names.at(0).rfind("rank 0 (", 0), 0u) << s.process_names.at(0);
  EXPECT_TRUE(s.spans[0].count("step"));
  const std::set<std::string> series{"throughput tokens_per_s", "dropped_share all",
                                     "dropped_share layer0", "dropped_share layer1"};
  EXPECT_EQ(s.counter_series[0], series);
}

TEST(TraceRun, TwoRanksAreTwoProcessesInOneTrace) {
  TempDir dir;
  const nlohmann::json trace = traced_run(dir, 2, "two");
  TraceSummary s = summarize(trace);
  ASSERT_EQ(s.process_names.size(), 2u) << trace.dump().substr(0, 2000);
  for (int rank : {0, 1}) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    EXPECT_EQ(s.process_names.at(rank).rfind("rank " + std::to_string(rank) + " (", 0), 0u)
        << s.process_names.at(rank);
    for (const char* span : {"step", "forward", "backward", "a2a", "optimizer"}) {
      EXPECT_TRUE(s.spans[rank].count(span)) << span;
    }
    EXPECT_EQ(s.counters[rank], (std::set<std::string>{"throughput", "dropped_share"}));
    EXPECT_TRUE(s.counter_series[rank].count("dropped_share layer1"));
  }
  // Every step has its counter on each rank.
  int throughput_samples = 0;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") == "C" && e.at("name") == "throughput") ++throughput_samples;
  }
  EXPECT_EQ(throughput_samples, 2 * 3);
  // The ranks' own files were merged and removed.
  EXPECT_FALSE(std::filesystem::exists(dir.file("two") + "/trace.rank1.json"));
}

// A rank killed mid-run: rank 0 fails the run and still writes trace.json with its own process,
// and its log names the rank whose trace it lacks.
TEST(TraceRun, AKilledRankLeavesRankZerosTrace) {
  TempDir dir;
  nlohmann::json c = traced_config();
  c["train"]["steps"] = 1000000;
  c["parallel"] = {{"nproc", 2}, {"timeout_s", 30}};
  const std::string run = dir.file("killed");
  MoeTrainProcess launcher(
      launch_args(2, {"run", "--config", write_config(dir, "c.json", c), "--run-dir", run}));
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "step", 3));
  const int rank1 = logged_pid(read_file(run + "/stderr.rank1.log"));
  ASSERT_GT(rank1, 0);
  ASSERT_EQ(kill(rank1, SIGKILL), 0);
  const auto result = launcher.wait();
  ASSERT_NE(result.exit_status, 0);
  const std::string text = read_file(run + "/trace.json");
  ASSERT_FALSE(text.empty()) << "no trace.json\n" << read_file(run + "/stderr.log");
  const TraceSummary s = summarize(nlohmann::json::parse(text));
  ASSERT_EQ(s.process_names.size(), 1u);
  EXPECT_EQ(s.process_names.at(0).rfind("rank 0 (", 0), 0u) << s.process_names.at(0);
  EXPECT_NE(read_file(run + "/stderr.log").find("trace.json lacks rank 1"), std::string::npos)
      << read_file(run + "/stderr.log");
}

}  // namespace
}  // namespace moe::test

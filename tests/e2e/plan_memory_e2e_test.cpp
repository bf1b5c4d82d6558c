// The planner's memory per rank against the engine's measured peak on this machine: a real run's
// peak resident set (wait4's ru_maxrss of moe-train; with several ranks, the `ranks` event's
// peak_bytes) within 20 % of the prediction. What a process holds before any model comes from a
// real run of a tiny config, as `moe-train bench --calibrate` measures runtime_bytes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "plan/hardware_profile.h"
#include "plan/step_time.h"
#include "process.h"
#include "protocol/run_config.h"

namespace moe::test {
namespace {

using nlohmann::json;

// Peak resident bytes of `moe-train run --config FILE`, which must succeed.
double run_peak_bytes(const std::string& config, const std::string& run_dir) {
  const std::string bin = moe_train_path();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(bin.c_str(), "moe-train", "run", "--config", config.c_str(), "--run-dir", run_dir.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << config;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // KiB on Linux
}

double predicted_bytes(const std::string& config_text, const plan::Layout& layout,
                       double runtime_bytes) {
  plan::HardwareProfile profile = plan::load_profile("h100-sxm");  // only memory is compared
  profile.device.runtime_bytes = runtime_bytes;
  return plan::predict(protocol::config_from_json(json::parse(config_text)), layout, profile)
      .memory_bytes;
}

std::string config(const std::string& model, const std::string& moe, int batch) {
  std::ostringstream c;
  c << R"({"name": "mem", "model": )" << model << R"(, "moe": )" << moe
    << R"(, "train": {"steps": 3, "batch_size": )" << batch << R"(, "threads": 2},
        "telemetry": {"expert_load": false}})";
  return c.str();
}

double runtime_bytes(const TempDir& dir) {
  const std::string tiny = config(R"({"kind": "helloworld", "dim": 16, "seq_len": 8})",
                                  R"({"experts": 2, "top_k": 1, "hidden": 16})", 2);
  return run_peak_bytes(dir.write("tiny.json", tiny), dir.file("tiny"));
}

void expect_within(double predicted, double measured, const std::string& what) {
  std::cout << what << ": predicted " << predicted / 1e6 << " MB, measured " << measured / 1e6
            << " MB\n";
  EXPECT_NEAR(predicted / measured, 1.0, 0.2)
      << what << ": predicted " << predicted / 1e6 << " MB, measured " << measured / 1e6 << " MB";
}

TEST(PlanMemory, OneRankWithinTwentyPercentOfThePeak) {
  TempDir dir;
  const double runtime = runtime_bytes(dir);
  // ~67 M expert parameters: weights, gradients and AdamW's states about 1.1 GB.
  const std::string big = config(R"({"kind": "helloworld", "dim": 1024, "seq_len": 128})",
                                 R"({"experts": 16, "top_k": 2, "hidden": 2048})", 8);
  const double measured = run_peak_bytes(dir.write("big.json", big), dir.file("big"));
  expect_within(predicted_bytes(big, plan::Layout{}, runtime), measured, "helloworld");
  // A language model: activations of attention and the loss as well as the states.
  const std::string lm =
      config(R"({"kind": "lm", "dim": 512, "layers": 4, "heads": 8, "seq_len": 256})",
             R"({"experts": 8, "top_k": 2, "hidden": 2048, "every": 2})", 8);
  const double lm_measured = run_peak_bytes(dir.write("lm.json", lm), dir.file("lm"));
  expect_within(predicted_bytes(lm, plan::Layout{}, runtime), lm_measured, "lm");
}

TEST(PlanMemory, TwoRanksWithinTwentyPercentOfTheirPeak) {
  TempDir dir;
  const double runtime = runtime_bytes(dir);
  std::string two = config(R"({"kind": "helloworld", "dim": 1024, "seq_len": 128})",
                           R"({"experts": 16, "top_k": 2, "hidden": 2048})", 8);
  two.insert(two.rfind('}'), R"(, "parallel": {"nproc": 2})");
  two.replace(two.find(R"("threads": 2)"), 12, R"("threads": 1)");
  const std::string path = dir.write("two.json", two);
  const auto r = run_moe_train({"launch", "--nproc-per-node", "2", "--", "run", "--config", path,
                                "--run-dir", dir.file("two")});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  double peak = 0;
  std::istringstream lines(read_file(dir.path() / "two" / "metrics.jsonl"));
  for (std::string line; std::getline(lines, line);) {
    const json e = json::parse(line);
    if (e["type"] != "ranks") continue;
    for (const auto& rank : e["ranks"]) peak = std::max(peak, rank["peak_bytes"].get<double>());
  }
  ASSERT_GT(peak, 0);
  expect_within(predicted_bytes(two, plan::Layout{1, 2, 1, 1}, runtime), peak, "2 ranks");
}

}  // namespace
}  // namespace moe::test

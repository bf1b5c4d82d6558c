// moe.bias_balancing in the telemetry: every expert_load event of a run that balances with the
// selection bias carries the bias its step routed with (docs/PROTOCOL.md, "expert_load"), which
// follows the update rule of docs/ROUTING.md, "Aux-loss-free bias balancing" from one logged step
// to the next; a run without it writes no bias.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "protocol/telemetry_reader.h"
#include "run_fixtures.h"

namespace moe::test {
namespace {

constexpr double kRate = 0.01;

struct LoadEvents {
  std::vector<nlohmann::json> loads;  // expert_load events, in order
  int malformed = 0;
};

LoadEvents run_lm(bool bias_balancing) {
  TempDir dir;
  nlohmann::json config = tiny_config("lm");
  config["train"]["steps"] = 5;
  if (bias_balancing) config["moe"]["bias_balancing"] = {{"enabled", true}, {"rate", kRate}};
  auto r = run_moe_train(
      {"run", "--config", write_config(dir, "c.json", config), "--run-dir", dir.file("run")});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  protocol::TelemetryReader reader;
  reader.feed(r.out);  // the app's reader takes the bias as well-formed
  return {events_of_type(events_of(r.out), "expert_load"),
          static_cast<int>(reader.stats().malformed)};
}

TEST(BiasTelemetry, EachStepCarriesTheBiasItRoutedWith) {
  const LoadEvents run = run_lm(true);
  EXPECT_EQ(run.malformed, 0);
  ASSERT_EQ(run.loads.size(), 10u);  // 5 steps x 2 MoE layers
  std::map<std::pair<int64_t, int64_t>, nlohmann::json> by_step_layer;
  for (const auto& e : run.loads) {
    ASSERT_TRUE(e.contains("bias")) << e.dump();
    ASSERT_EQ(e["bias"].size(), e["counts"].size());
    by_step_layer[{e["step"].get<int64_t>(), e["layer"].get<int64_t>()}] = e;
  }
  for (int64_t layer = 0; layer < 2; ++layer) {
    for (const auto& b : by_step_layer.at({1, layer})["bias"]) EXPECT_EQ(b.get<double>(), 0.0);
    // bias(s + 1) = bias(s) + rate * sign(mean(d) - d) with d the counts of step s (one
    // micro-batch, one process: the step's whole demand).
    for (int64_t step = 1; step < 5; ++step) {
      const auto& now = by_step_layer.at({step, layer});
      const auto& next = by_step_layer.at({step + 1, layer})["bias"];
      double mean = 0;
      for (const auto& c : now["counts"]) mean += c.get<double>();
      mean /= static_cast<double>(now["counts"].size());
      for (size_t e = 0; e < next.size(); ++e) {
        const double d = now["counts"][e].get<double>();
        const double sign = mean > d ? 1.0 : (mean < d ? -1.0 : 0.0);
        EXPECT_NEAR(next[e].get<double>(), now["bias"][e].get<double>() + kRate * sign, 1e-6)
            << "layer " << layer << " step " << step + 1 << " expert " << e;
      }
    }
  }
}

TEST(BiasTelemetry, NoBiasWithoutBiasBalancing) {
  const LoadEvents run = run_lm(false);
  ASSERT_EQ(run.loads.size(), 10u);
  for (const auto& e : run.loads) EXPECT_FALSE(e.contains("bias")) << e.dump();
}

}  // namespace
}  // namespace moe::test

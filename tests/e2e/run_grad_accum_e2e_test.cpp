// Gradient accumulation: n micro-batches of B/n make the same optimizer step as one batch of B
// (float64, dropless routing, no aux loss: nothing depends on how the batch is split).
#include <gtest/gtest.h>

#include <cmath>

#include "run_fixtures.h"

namespace moe::test {
namespace {

std::vector<nlohmann::json> run_split(const TempDir& dir, const std::string& data,
                                      int64_t batch, int64_t accum) {
  nlohmann::json c = tiny_config("image");
  c["data"] = {{"kind", "idx"}, {"path", data}};
  c["moe"]["capacity_factor"] = 0.0;
  c["moe"]["fp32_gate"] = false;  // float32 routing would round differently per split
  c["train"].update({{"dtype", "float64"}, {"aux_loss_weight", 0.0}, {"optimizer", "sgd"},
                     {"momentum", 0.9}, {"lr", 0.05}, {"steps", 4}, {"batch_size", batch},
                     {"grad_accum", accum}});
  const std::string name = "b" + std::to_string(batch) + "x" + std::to_string(accum);
  auto r = run_moe_train({"run", "--config", write_config(dir, name + ".json", c), "--run-dir",
                          dir.file(name)});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  return events_of_type(events_of(r.out), "step");
}

TEST(RunGradAccum, MicroBatchesEqualOneBigBatch) {
  TempDir dir;
  const std::string data = write_idx_dataset(dir.file("idx"), 96, 16);
  auto whole = run_split(dir, data, 16, 1);
  auto split = run_split(dir, data, 4, 4);
  ASSERT_EQ(whole.size(), 4u);
  ASSERT_EQ(split.size(), 4u);
  for (size_t i = 0; i < whole.size(); ++i) {
    const double a = whole[i]["loss"], b = split[i]["loss"];
    EXPECT_NEAR(a, b, 1e-10 * std::abs(a)) << "step " << i + 1;
    const double ga = whole[i]["grad_norm"], gb = split[i]["grad_norm"];
    EXPECT_NEAR(ga, gb, 1e-10 * std::abs(ga)) << "step " << i + 1;
    EXPECT_EQ(whole[i]["tokens"], split[i]["tokens"]);
  }
}

}  // namespace
}  // namespace moe::test

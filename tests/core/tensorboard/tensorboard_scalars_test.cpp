#include "tensorboard/tensorboard_scalars.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace moe::tensorboard {
namespace {

std::map<std::string, float> as_map(const TensorBoardScalars& s) {
  std::map<std::string, float> m;
  for (const auto& [tag, value] : s.values) m[tag] = value;
  return m;
}

TEST(TensorBoardScalars, StepEvent) {
  const auto s = tensorboard_scalars(nlohmann::json::parse(R"({"v":1,"type":"step","t":1.5,
      "step":7,"loss":2.5,"task_loss":2.25,"aux_loss":0.125,"z_loss":0.0,"lr":0.001,
      "grad_norm":0.75,"tokens":256,"tokens_per_s":12800.0,"step_ms":20.0})"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->step, 7);
  const std::map<std::string, float> expected{{"train/loss", 2.5f},
                                              {"train/task_loss", 2.25f},
                                              {"train/aux_loss", 0.125f},
                                              {"train/z_loss", 0.0f},
                                              {"train/lr", 0.001f},
                                              {"train/grad_norm", 0.75f},
                                              {"speed/tokens_per_s", 12800.0f},
                                              {"speed/step_ms", 20.0f}};
  EXPECT_EQ(as_map(*s), expected);  // no tflops: absent from the event
}

TEST(TensorBoardScalars, NullIsNaN) {
  const auto s = tensorboard_scalars(
      nlohmann::json::parse(R"({"type":"eval","step":3,"loss":null,"accuracy":0.5})"));
  ASSERT_TRUE(s);
  const auto m = as_map(*s);
  EXPECT_TRUE(std::isnan(m.at("eval/loss")));
  EXPECT_EQ(m.at("eval/accuracy"), 0.5f);
}

TEST(TensorBoardScalars, ExpertLoadPerLayer) {
  const auto s = tensorboard_scalars(nlohmann::json::parse(R"({"type":"expert_load","step":4,
      "layer":1,"counts":[3,1],"kept":[2,1],"capacity":2,"dropped_frac":0.25,"cv":0.5,
      "max_over_mean":1.5,"load_entropy":0.8,"router_entropy":0.9,"dead_experts":0,
      "importance":[0.7,0.3],"l_aux":1.1,"z_loss":0.2})"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->step, 4);
  const std::map<std::string, float> expected{
      {"balance/layer1/dropped_frac", 0.25f},  {"balance/layer1/cv", 0.5f},
      {"balance/layer1/max_over_mean", 1.5f},  {"balance/layer1/load_entropy", 0.8f},
      {"balance/layer1/router_entropy", 0.9f}, {"balance/layer1/dead_experts", 0.0f},
      {"balance/layer1/l_aux", 1.1f}};
  EXPECT_EQ(as_map(*s), expected);
}

TEST(TensorBoardScalars, Phases) {
  const auto s = tensorboard_scalars(nlohmann::json::parse(
      R"({"type":"phases","step":2,"ms":{"gate":1.5,"a2a":0,"other":3.25}})"));
  ASSERT_TRUE(s);
  const std::map<std::string, float> expected{
      {"phases/gate_ms", 1.5f}, {"phases/a2a_ms", 0.0f}, {"phases/other_ms", 3.25f}};
  EXPECT_EQ(as_map(*s), expected);
}

TEST(TensorBoardScalars, OtherEventsGiveNone) {
  for (const char* line :
       {R"({"type":"run_start","run_id":"x"})", R"({"type":"checkpoint","step":3,"path":"p"})",
        R"({"type":"log","level":"info","msg":"hi"})", R"({"type":"step"})", R"([1,2])",
        R"({"type":"ranks","step":1,"ranks":[]})"}) {
    EXPECT_FALSE(tensorboard_scalars(nlohmann::json::parse(line))) << line;
  }
}

}  // namespace
}  // namespace moe::tensorboard

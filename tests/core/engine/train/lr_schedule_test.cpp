// learning_rate: linear warm-up, then constant, cosine or linear decay; values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "train/lr_schedule.h"

namespace moe::train {
namespace {

// lr 0.1 over 110 steps, the first 10 of them warm-up: the decay spans steps 10..110.
protocol::TrainConfig config(const std::string& schedule, int64_t warmup = 10) {
  protocol::TrainConfig c;
  c.lr = 0.1;
  c.steps = 110;
  c.warmup_steps = warmup;
  c.schedule = protocol::enum_from_name<protocol::Schedule>(schedule).value();
  return c;
}

TEST(LearningRate, WarmUpRisesLinearlyToLr) {
  for (const char* schedule : {"constant", "cosine", "linear"}) {
    const auto c = config(schedule);
    EXPECT_DOUBLE_EQ(learning_rate(c, 1), 0.01) << schedule;
    EXPECT_DOUBLE_EQ(learning_rate(c, 5), 0.05) << schedule;
    EXPECT_DOUBLE_EQ(learning_rate(c, 10), 0.1) << schedule;
  }
}

TEST(LearningRate, ConstantAfterWarmUp) {
  const auto c = config("constant");
  for (int64_t step : {11, 50, 110, 500}) EXPECT_DOUBLE_EQ(learning_rate(c, step), 0.1) << step;
}

TEST(LearningRate, CosineHalvesHalfWayAndEndsAtZero) {
  const auto c = config("cosine");
  EXPECT_NEAR(learning_rate(c, 60), 0.05, 1e-15);                         // half-way: lr / 2
  EXPECT_NEAR(learning_rate(c, 35), 0.05 * (1 + std::sqrt(0.5)), 1e-15);  // a quarter: cos(pi/4)
  EXPECT_NEAR(learning_rate(c, 85), 0.05 * (1 - std::sqrt(0.5)), 1e-15);
  EXPECT_NEAR(learning_rate(c, 110), 0.0, 1e-15);
  EXPECT_NEAR(learning_rate(c, 200), 0.0, 1e-15);  // past the end stays at 0
}

TEST(LearningRate, LinearDecaysToZero) {
  const auto c = config("linear");
  EXPECT_NEAR(learning_rate(c, 35), 0.075, 1e-15);
  EXPECT_NEAR(learning_rate(c, 60), 0.05, 1e-15);
  EXPECT_NEAR(learning_rate(c, 100), 0.01, 1e-15);
  EXPECT_NEAR(learning_rate(c, 110), 0.0, 1e-15);
}

TEST(LearningRate, WithoutWarmUpStartsAtLr) {
  auto c = config("cosine", 0);
  c.steps = 100;
  EXPECT_NEAR(learning_rate(c, 50), 0.05, 1e-15);
  EXPECT_NEAR(learning_rate(c, 100), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(learning_rate(config("constant", 0), 1), 0.1);
  const double first = learning_rate(c, 1);
  EXPECT_TRUE(std::isfinite(first));
  EXPECT_NEAR(first, 0.1, 1e-3);
}

TEST(LearningRate, WarmUpLongerThanTheRunStaysInWarmUp) {
  auto c = config("cosine", 20);
  c.steps = 10;
  EXPECT_DOUBLE_EQ(learning_rate(c, 10), 0.05);
}

}  // namespace
}  // namespace moe::train

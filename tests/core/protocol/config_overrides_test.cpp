// --set key.path=value overrides.
#include "protocol/config_overrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "protocol/run_config.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;

std::string override_error(json& j, const std::string& assignment) {
  try {
    apply_override(j, assignment);
  } catch (const OverrideError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Overrides, SetsTypedValues) {
  json j = json::object();
  apply_overrides(j, {"moe.top_k=4", "train.lr=3e-4", "name=foo", "moe.bias_balancing.enabled=true",
                      "moe.capacity_factor=-1", "model.dim=1024.0", "data.path=/a b=c"});
  RunConfig c = config_from_json(j);
  EXPECT_EQ(c.moe.top_k, 4);
  EXPECT_DOUBLE_EQ(c.train.lr, 3e-4);
  EXPECT_EQ(c.name, "foo");
  EXPECT_TRUE(c.moe.bias_balancing.enabled);
  EXPECT_EQ(c.moe.capacity_factor, -1.0);
  EXPECT_EQ(c.model.dim, 1024);
  EXPECT_EQ(c.data.path, "/a b=c");
  EXPECT_TRUE(j["moe"]["top_k"].is_number_integer());
  EXPECT_TRUE(j["moe"]["capacity_factor"].is_number_float());
}

TEST(Overrides, KeepsOtherKeysAndReplacesExisting) {
  json j = json::parse(R"({"moe": {"experts": 16, "top_k": 1}, "name": "x"})");
  apply_override(j, "moe.top_k=2");
  EXPECT_EQ(j, json::parse(R"({"moe": {"experts": 16, "top_k": 2}, "name": "x"})"));
}

TEST(Overrides, NullConfigIsEmpty) {
  json j;
  apply_override(j, "seed=5");
  EXPECT_EQ(j, json::parse(R"({"seed": 5})"));
}

TEST(Overrides, EmptyStringValue) {
  json j = json::object();
  apply_override(j, "data.path=");
  EXPECT_EQ(j["data"]["path"], "");
}

TEST(Overrides, BadValues) {
  json j = json::object();
  EXPECT_EQ(override_error(j, "moe.top_k=abc"), "moe.top_k: expected an integer, got \"abc\"");
  EXPECT_EQ(override_error(j, "moe.top_k=2.5"), "moe.top_k: expected an integer, got \"2.5\"");
  EXPECT_EQ(override_error(j, "moe.top_k="), "moe.top_k: expected an integer, got \"\"");
  EXPECT_EQ(override_error(j, "seed=99999999999999999999"),
            "seed: expected an integer, got \"99999999999999999999\" (out of range)");
  EXPECT_EQ(override_error(j, "train.lr=fast"), "train.lr: expected a number, got \"fast\"");
  EXPECT_EQ(override_error(j, "train.lr=nan"), "train.lr: expected a number, got \"nan\"");
  EXPECT_EQ(override_error(j, "train.lr=1e999"),
            "train.lr: expected a number, got \"1e999\" (out of range)");
  EXPECT_EQ(override_error(j, "train.steps=-1e999"),
            "train.steps: expected an integer, got \"-1e999\" (out of range)");
  EXPECT_EQ(override_error(j, "train.amp=yes"), "train.amp: expected true or false, got \"yes\"");
  EXPECT_EQ(override_error(j, "train.amp=1"), "train.amp: expected true or false, got \"1\"");
  EXPECT_EQ(j, json::object()) << "a failed override must not change the config";
}

TEST(Overrides, AdaptiveRTakesAutoOrAnIntegerAtLeastZero) {
  json j = json::object();
  apply_overrides(j, {"parallel.adaptive_r=auto", "parallel.nodes=2", "parallel.timeout_s=30"});
  EXPECT_EQ(j["parallel"]["adaptive_r"], "auto");
  RunConfig c = config_from_json(j);
  EXPECT_EQ(c.parallel.adaptive_r, kAdaptiveRAuto);
  EXPECT_EQ(c.parallel.world_size(), 2);
  EXPECT_DOUBLE_EQ(c.parallel.timeout_s, 30.0);
  apply_override(j, "parallel.adaptive_r= 4");
  EXPECT_EQ(config_from_json(j).parallel.adaptive_r, 4);
  apply_override(j, "parallel.adaptive_r=0");
  EXPECT_EQ(config_from_json(j).parallel.adaptive_r, 0);
  EXPECT_EQ(override_error(j, "parallel.adaptive_r=fast"),
            R"(parallel.adaptive_r: expected an integer >= 0 or "auto", got "fast")");
  EXPECT_EQ(override_error(j, "parallel.adaptive_r=-1"),
            R"(parallel.adaptive_r: expected an integer >= 0 or "auto", got "-1")");
  EXPECT_EQ(override_error(j, "parallel.adaptive_r=1.5"),
            R"(parallel.adaptive_r: expected an integer >= 0 or "auto", got "1.5")");
  // Only int_or_auto keys take "auto".
  EXPECT_EQ(override_error(j, "moe.top_k=auto"), R"(moe.top_k: expected an integer, got "auto")");
}

TEST(Overrides, UnknownPaths) {
  json j = json::object();
  EXPECT_EQ(override_error(j, "moe.topk=4"), "moe.topk: unknown key");
  EXPECT_EQ(override_error(j, "nope=1"), "nope: unknown key");
  EXPECT_EQ(override_error(j, "name.first=1"), "name.first: unknown key");
  EXPECT_EQ(override_error(j, "moe..top_k=1"), "moe..top_k: unknown key");
  EXPECT_EQ(override_error(j, "=1"), ": unknown key");
  EXPECT_EQ(override_error(j, "moe=1"), "moe: is a section, not a value; set one of its keys");
  EXPECT_EQ(override_error(j, "moe.top_k"), "moe.top_k: expected key.path=value");
}

TEST(Overrides, ErrorCarriesJsonPointer) {
  json j = json::object();
  try {
    apply_override(j, "moe.bias_balancing.rate=x");
    FAIL();
  } catch (const OverrideError& e) {
    EXPECT_EQ(e.key(), "moe.bias_balancing.rate");
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].pointer, "/moe/bias_balancing/rate");
    EXPECT_EQ(e.problems()[0].message, "expected a number, got \"x\"");
  }
}

TEST(Overrides, SectionThatIsNotAnObject) {
  json j = json::parse(R"({"moe": [1]})");
  EXPECT_EQ(override_error(j, "moe.top_k=1"),
            "moe.top_k: cannot set: \"moe\" in the config is not an object");
  EXPECT_EQ(j, json::parse(R"({"moe": [1]})"));
  json k = json::array();
  EXPECT_EQ(override_error(k, "seed=1"), "seed: the config is not a JSON object");
}

TEST(Overrides, IsAConfigError) {
  json j = json::object();
  EXPECT_THROW(apply_override(j, "x=1"), ConfigError);
}

}  // namespace
}  // namespace moe::protocol

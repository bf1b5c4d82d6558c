// Numbers a double cannot hold (1e400) are config problems like any other: a ConfigError naming
// the file and the key's JSON pointer, never the JSON library's own exception.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "protocol/json_location.h"
#include "protocol/run_config.h"
#include "test_util.h"

namespace moe::protocol {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

std::string load_error(const std::string& path) {
  try {
    load_config_file(path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no ConfigError";
}

TEST(ConfigNumberRange, HugeDoubleNamesFileAndKey) {
  TempDir dir;
  const std::string path =
      dir.write("c.json", "{\n  \"moe\": {\"experts\": 8, \"capacity_factor\": 1e400}\n}\n");
  EXPECT_EQ(load_error(path),
            path +
                ": /moe/capacity_factor: number 1e400 is out of range for a double (line 2, "
                "column 48)");
}

TEST(ConfigNumberRange, NegativeOverflowInAnIntegerKey) {
  TempDir dir;
  const std::string path = dir.write("c.json", R"({"train": {"steps": -2e308}})");
  EXPECT_THAT(load_error(path), HasSubstr(path + ": /train/steps: number -2e308 is out of range"));
}

TEST(ConfigNumberRange, PointerReachesIntoArraysAndEscapesKeys) {
  EXPECT_EQ(detail::where_parsing_stops(R"({"a": [1, 2, {"x/y": 1e999}]})").pointer, "/a/2/x~1y");
  EXPECT_EQ(detail::where_parsing_stops(R"([0, [1, 1e999]])").pointer, "/1/1");
  EXPECT_EQ(detail::where_parsing_stops("1e999").pointer, "");
  EXPECT_EQ(detail::where_parsing_stops(R"({"a": 1})").byte, 0u);  // parses: no stop
}

TEST(ConfigNumberRange, LongLiteralsAreCut) {
  TempDir dir;
  const std::string path = dir.write("c.json", "{\"seed\": 1" + std::string(400, '0') + "}");
  const std::string what = load_error(path);
  EXPECT_THAT(what, HasSubstr(": /seed: number 1000"));
  EXPECT_LT(what.size(), path.size() + 120) << what;
}

}  // namespace
}  // namespace moe::protocol

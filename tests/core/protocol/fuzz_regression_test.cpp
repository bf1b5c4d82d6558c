// Inputs the fuzzers found (minimised), and a replay of the seed corpora, so fixed crashes stay
// fixed in the ordinary test run (which has no libFuzzer).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "protocol/run_config.h"
#include "protocol/telemetry_reader.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;

std::vector<std::string> corpus(const std::string& name) {
  std::vector<std::string> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(MOE_FUZZ_CORPUS_DIR) + "/" + name)) {
    std::ifstream in(entry.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return out;
}

// What config_fuzzer does, with gtest assertions.
void replay_config(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (!j.is_discarded()) {
    std::vector<ConfigProblem> problems;
    EXPECT_NO_THROW(problems = check(j, nullptr, ValidateOptions{false})) << text;
    try {
      RunConfig c = config_from_json(j);
      EXPECT_EQ(to_json(config_from_json(to_json(c))), to_json(c));
    } catch (const ConfigError& e) {
      EXPECT_FALSE(e.problems().empty());
    }
  }
  json target = json::object();
  try {
    apply_override(target, text);
  } catch (const OverrideError&) {
  }
}

void replay_telemetry(const std::string& text) {
  TelemetryReader reader(64);
  int64_t n = 0;
  EXPECT_NO_THROW(n += static_cast<int64_t>(reader.feed(text).size()));
  EXPECT_NO_THROW(n += static_cast<int64_t>(reader.finish().size()));
  EXPECT_EQ(reader.stats().events, n);
  TelemetryReader big;
  EXPECT_NO_THROW(big.feed(text));
}

TEST(FuzzCorpus, ConfigSeedsReplay) {
  auto files = corpus("config");
  EXPECT_GE(files.size(), 3u);
  for (const std::string& text : files) replay_config(text);
}

TEST(FuzzCorpus, TelemetrySeedsReplay) {
  auto files = corpus("telemetry");
  EXPECT_GE(files.size(), 3u);
  for (const std::string& text : files) replay_telemetry(text);
}

// Hostile shapes the fuzzers reach only slowly (long inputs), pinned here. None crashed; these keep
// it that way (the asan preset runs them with ASan/UBSan).
TEST(FuzzRegression, DeeplyNestedUnknownConfigValue) {
  std::string text =
      R"({"model": {"x": )" + std::string(200000, '[') + std::string(200000, ']') + "}}";
  json j = json::parse(text);
  std::vector<ConfigProblem> problems;
  EXPECT_NO_THROW(problems = check(j));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(format_problem(problems[0]), "/model/x: unknown key");
}

TEST(FuzzRegression, ControlCharactersAndNulInKeys) {
  json j = json::parse(R"({"a\u0000b": 1, "\n": 2, "moe": {"~/": 3}})");
  std::vector<std::string> got;
  for (const auto& p : check(j)) got.push_back(p.pointer);
  EXPECT_THAT(got, ::testing::UnorderedElementsAre(std::string("/a\0b", 4), "/\n", "/moe/~0~1"));
}

TEST(FuzzRegression, OverrideWithHugeOrOddText) {
  json j = json::object();
  EXPECT_THROW(apply_override(j, "moe.top_k=" + std::string(100000, '9')), OverrideError);
  EXPECT_THROW(apply_override(j, "train.lr=" + std::string(100000, '[')), OverrideError);
  EXPECT_THROW(apply_override(j, std::string("moe.top_k\0=1", 13)), OverrideError);
  EXPECT_NO_THROW(apply_override(j, "name=" + std::string(100000, 'n')));
  EXPECT_EQ(check(j).size(), 1u);  // the name is too long
}

TEST(FuzzRegression, TelemetryNumbersAtTheEdges) {
  for (const char* line :
       {R"({"v":1,"type":"checkpoint","t":1e308,"step":9223372036854775808,"path":""})",
        R"({"v":1,"type":"checkpoint","t":-0,"step":-9223372036854775809,"path":""})",
        R"({"v":18446744073709551616,"type":"log","t":0,"level":"","msg":""})",
        R"({"v":1,"type":"step","t":1e400})"}) {
    LineKind kind;
    EXPECT_FALSE(parse_event_line(line, &kind).has_value()) << line;
    EXPECT_EQ(kind, LineKind::kMalformed) << line;
  }
}

}  // namespace
}  // namespace moe::protocol

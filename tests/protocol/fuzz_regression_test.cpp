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

}  // namespace
}  // namespace moe::protocol

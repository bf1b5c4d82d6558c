// Inputs the fuzzers found (minimised), and a replay of the seed corpora, so fixed crashes stay
// fixed in the ordinary test run (which has no libFuzzer).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "protocol/bench_lines.h"
#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "protocol/replay_lines.h"
#include "protocol/run_config.h"
#include "protocol/safetensors_header.h"
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

// What safetensors_header_fuzzer does: refused with a SafetensorsError, or tensors that tile the
// data.
void replay_safetensors(const std::string& bytes) {
  ASSERT_GE(bytes.size(), 2u);
  const uint64_t data_size = static_cast<unsigned char>(bytes[0]) |
                             (static_cast<uint64_t>(static_cast<unsigned char>(bytes[1])) << 8);
  try {
    const SafetensorsHeader h = parse_safetensors_header("seed", bytes.substr(2), data_size);
    uint64_t covered = 0;
    for (const auto& [name, e] : h.tensors) covered += e.end - e.begin;
    EXPECT_EQ(covered, data_size);
  } catch (const SafetensorsError& e) {
    EXPECT_NE(std::string(e.what()).find("safetensors file 'seed'"), std::string::npos);
  }
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

TEST(FuzzCorpus, SafetensorsSeedsReplay) {
  auto files = corpus("safetensors");
  EXPECT_GE(files.size(), 3u);
  for (const std::string& bytes : files) replay_safetensors(bytes);
}

// What replay_lines_fuzzer does: a line either side accepts writes back to the same.
TEST(FuzzCorpus, ReplayLineSeedsReplay) {
  auto files = corpus("replay");
  EXPECT_GE(files.size(), 3u);
  for (const std::string& line : files) {
    const ReplayRequestRead request = parse_replay_request(line, 1);
    if (request.request) {
      const ReplayRequestRead back = parse_replay_request(replay_request_line(*request.request), 1);
      ASSERT_TRUE(back.request) << line;
      EXPECT_EQ(back.request->moe, request.request->moe);
    } else {
      EXPECT_FALSE(request.error.empty());
    }
    const ReplayLine read = parse_replay_line(line);
    if (read.kind == ReplayLine::Kind::Answer) {
      const ReplayLine back = parse_replay_line(replay_answer_line(*read.id, read.answer));
      EXPECT_EQ(back.kind, ReplayLine::Kind::Answer) << line;
      EXPECT_EQ(back.answer.counts, read.answer.counts);
    }
  }
}

// What bench_lines_fuzzer does: every seed is read, a config line writes back to the same.
TEST(FuzzCorpus, BenchLineSeedsReplay) {
  auto files = corpus("bench");
  EXPECT_GE(files.size(), 3u);
  for (const std::string& line : files) {
    const BenchLine read = parse_bench_line(line);
    EXPECT_NE(read.kind, BenchLine::Kind::Bad) << read.error;
    if (read.kind == BenchLine::Kind::Config) {
      const BenchLine back =
          parse_bench_line(bench_config_line(read.object, read.index, read.configs, 0));
      EXPECT_EQ(back.object.at("config"), read.object.at("config"));
    }
  }
}

TEST(FuzzRegression, SafetensorsHeadersAtTheEdges) {
  // A shape whose bytes overflow, offsets past 2^64, a NUL, nesting a header does not have.
  for (const std::string& text :
       {std::string(
            R"({"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,0]}})"),
        std::string(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,18446744073709551616]}})"),
        std::string("{\"w\":", 5) + '\0' + "}",
        std::string(R"({"w":{"dtype":"U8","shape":[[1]],"data_offsets":[0,1]}})"),
        std::string(100000, '[')}) {
    EXPECT_THROW(parse_safetensors_header("edge", text, 1), SafetensorsError) << text.substr(0, 80);
  }
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

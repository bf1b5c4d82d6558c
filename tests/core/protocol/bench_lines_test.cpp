// bench --jsonl's lines: what the engine writes the reader reads back whole, and lines that are
// not the protocol's are reported with a reason.
#include <gtest/gtest.h>

#include "protocol/bench_lines.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;

TEST(BenchLines, StartConfigAndEndReadBackAsWritten) {
  const BenchLine start = parse_bench_line(bench_start_line({6, "paired", 5, 1.5, false}));
  ASSERT_EQ(start.kind, BenchLine::Kind::Start) << start.error;
  EXPECT_EQ(start.configs, 6);
  EXPECT_EQ(start.object.at("mode"), "paired");
  EXPECT_EQ(start.object.at("naive"), false);

  const json figures = {{"config", {{"moe.experts", 8}}},
                        {"tokens", 4096},
                        {"train_tokens_per_s", 12345.5},
                        {"phases_ms", {{"gate", 0.25}}}};
  const std::string text = bench_config_line(figures, 2, 6, 3.25);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  const BenchLine config = parse_bench_line(text);
  ASSERT_EQ(config.kind, BenchLine::Kind::Config) << config.error;
  EXPECT_EQ(config.index, 2);
  EXPECT_EQ(config.configs, 6);
  EXPECT_EQ(config.object.at("type"), "bench_config");
  EXPECT_EQ(config.object.at("seconds"), 3.25);
  for (const auto& [key, value] : figures.items()) EXPECT_EQ(config.object.at(key), value) << key;

  const BenchLine end = parse_bench_line(bench_end_line(6, 20.5));
  ASSERT_EQ(end.kind, BenchLine::Kind::End);
  EXPECT_EQ(end.configs, 6);
}

TEST(BenchLines, LinesThatAreNotTheProtocolsSayWhy) {
  const auto bad = [](std::string_view line) {
    const BenchLine read = parse_bench_line(line);
    EXPECT_EQ(read.kind, BenchLine::Kind::Bad) << line;
    EXPECT_FALSE(read.error.empty()) << line;
    return read.error;
  };
  EXPECT_NE(bad("bench [1/2] ...").find("not a JSON object (not valid JSON)"), std::string::npos);
  EXPECT_NE(bad("[1]").find("not a JSON object (another value)"), std::string::npos);
  EXPECT_NE(bad(R"({"type":"bench_config","config":{}})").find("train_tokens_per_s"),
            std::string::npos);
  EXPECT_NE(bad(R"({"type":"bench_config","config":5,"train_tokens_per_s":1})").find("config"),
            std::string::npos);
  EXPECT_NE(bad(R"({"type":"step"})").find("unknown line type \"step\""), std::string::npos);
  EXPECT_NE(bad(R"({"configs":3})").find("unknown line type"), std::string::npos);
}

}  // namespace
}  // namespace moe::protocol

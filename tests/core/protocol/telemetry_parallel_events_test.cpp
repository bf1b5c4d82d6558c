// The reader on the multi-process events (ranks, adaptive_r): what they accept, what is malformed,
// and that a stream of older events alone still reads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "protocol/telemetry_reader.h"

namespace moe::protocol {
namespace {

using ::testing::HasSubstr;

const std::string kRank0 =
    R"({"rank":0,"host":"a","step_ms":10,"compute_ms":7,"a2a_ms":2,"allreduce_ms":1,)"
    R"("tokens":512,"peak_bytes":1048576})";
const std::string kRank1 =
    R"({"rank":1,"host":"b","step_ms":13,"compute_ms":7,"a2a_ms":5,"allreduce_ms":1,)"
    R"("tokens":512,"peak_bytes":1048576})";

std::string ranksLine(const std::string& entries) {
  return R"({"v":1,"type":"ranks","t":3.5,"step":20,"ranks":[)" + entries + "]}";
}

std::string adaptiveLine(const std::string& tried) {
  return R"({"v":1,"type":"adaptive_r","t":4,"step":50,"r":1,"tried":)" + tried +
         R"(,"reason":"fastest"})";
}

LineKind kindOf(const std::string& line, std::string* error = nullptr) {
  LineKind kind;
  parse_event_line(line, &kind, error);
  return kind;
}

TEST(RanksEventParse, ReadsEveryRank) {
  auto e = parse_event_line(ranksLine(kRank0 + "," + kRank1));
  ASSERT_TRUE(e.has_value());
  const auto& ranks = std::get<RanksEvent>(*e);
  EXPECT_EQ(ranks.step, 20);
  EXPECT_EQ(ranks.t, 3.5);
  ASSERT_EQ(ranks.ranks.size(), 2u);
  EXPECT_EQ(ranks.ranks[1].rank, 1);
  EXPECT_EQ(ranks.ranks[1].host, "b");
  EXPECT_EQ(ranks.ranks[1].step_ms, 13.0);
  EXPECT_EQ(ranks.ranks[1].a2a_ms, 5.0);
  EXPECT_EQ(ranks.ranks[0].peak_bytes, 1048576);
}

TEST(RanksEventParse, NullIsNaNAndHostIsOptional) {
  auto e = parse_event_line(
      ranksLine(R"({"rank":0,"step_ms":null,"compute_ms":1,"a2a_ms":0,"allreduce_ms":0,"tokens":1,)"
                R"("peak_bytes":0,"future_key":[1]})"));
  ASSERT_TRUE(e.has_value());
  const auto& r = std::get<RanksEvent>(*e).ranks.at(0);
  EXPECT_TRUE(std::isnan(r.step_ms));
  EXPECT_EQ(r.host, "");
}

TEST(RanksEventParse, MalformedValuesNameWhere) {
  std::string error;
  EXPECT_EQ(kindOf(R"({"v":1,"type":"ranks","t":0,"step":1,"ranks":{}})", &error),
            LineKind::kMalformed);
  EXPECT_EQ(error, "ranks: \"ranks\": expected an array, got object");
  EXPECT_EQ(kindOf(ranksLine(kRank0 + ",7"), &error), LineKind::kMalformed);
  EXPECT_EQ(error, "ranks: \"ranks[1]\": expected an object, got number 7");
  EXPECT_EQ(kindOf(ranksLine(R"({"rank":0,"step_ms":"slow"})"), &error), LineKind::kMalformed);
  EXPECT_EQ(error, "ranks: ranks[0]: \"step_ms\": expected a number, got string \"slow\"");
  EXPECT_EQ(kindOf(ranksLine(R"({"rank":0,"host":"a"})"), &error), LineKind::kMalformed);
  EXPECT_EQ(error, "ranks: ranks[0]: missing \"step_ms\"");
  std::string rank_float = kRank0;
  rank_float.replace(rank_float.find("\"rank\":0"), 8, "\"rank\":0.5");
  EXPECT_EQ(kindOf(ranksLine(rank_float), &error), LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("\"rank\": expected an integer"));
  std::string negative = kRank0;
  negative.replace(negative.find("\"rank\":0"), 8, "\"rank\":-1");
  EXPECT_EQ(kindOf(ranksLine(negative), &error), LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("must be >= 0"));
  EXPECT_EQ(kindOf(ranksLine(kRank1 + "," + kRank1), &error), LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("a rank appears twice"));
  EXPECT_EQ(kindOf(R"({"v":1,"type":"ranks","t":0,"ranks":[]})", &error), LineKind::kMalformed);
  EXPECT_EQ(error, "ranks: missing \"step\"");
}

TEST(AdaptiveREventParse, ReadsTriedByR) {
  auto e = parse_event_line(adaptiveLine(R"({"0":12.5,"1":9.1,"16":null})"));
  ASSERT_TRUE(e.has_value());
  const auto& a = std::get<AdaptiveREvent>(*e);
  EXPECT_EQ(a.step, 50);
  EXPECT_EQ(a.r, 1);
  EXPECT_EQ(a.reason, "fastest");
  ASSERT_EQ(a.tried.size(), 3u);
  EXPECT_EQ(a.tried.at(0), 12.5);
  EXPECT_TRUE(std::isnan(a.tried.at(16)));
}

TEST(AdaptiveREventParse, MalformedValues) {
  std::string error;
  for (const char* key : {"x", "01", "1.5", "", "+1", " 1"}) {
    EXPECT_EQ(kindOf(adaptiveLine(std::string(R"({")") + key + R"(":1})"), &error),
              LineKind::kMalformed)
        << key;
    EXPECT_THAT(error, HasSubstr("\"tried\": expected integer keys")) << key;
  }
  EXPECT_EQ(kindOf(adaptiveLine(R"({"1":"fast"})"), &error), LineKind::kMalformed);
  EXPECT_EQ(error, "adaptive_r: \"tried\": expected numbers, got string \"fast\"");
  EXPECT_EQ(kindOf(adaptiveLine("[1,2]"), &error), LineKind::kMalformed);
  EXPECT_EQ(error, "adaptive_r: \"tried\": expected an object, got array");
  EXPECT_EQ(kindOf(R"({"v":1,"type":"adaptive_r","t":0,"step":1,"r":"1","tried":{}})", &error),
            LineKind::kMalformed);
  EXPECT_EQ(error, "adaptive_r: \"r\": expected an integer, got string \"1\"");
  EXPECT_EQ(
      kindOf(R"({"v":1,"type":"adaptive_r","t":0,"step":1,"r":1,"tried":{},"reason":2})", &error),
      LineKind::kMalformed);
  EXPECT_EQ(error, "adaptive_r: \"reason\": expected a string, got number 2");
  auto no_reason =
      parse_event_line(R"({"v":1,"type":"adaptive_r","t":0,"step":1,"r":0,"tried":{}})");
  ASSERT_TRUE(no_reason.has_value());
  EXPECT_EQ(std::get<AdaptiveREvent>(*no_reason).reason, "");
}

TEST(TelemetryReader, MalformedParallelLinesAreCountedNotFatal) {
  TelemetryReader reader;
  const std::string log = R"({"v":1,"type":"log","t":0,"level":"info","msg":"ok"})";
  auto events = reader.feed(ranksLine(kRank0 + ",[]") + "\n" + adaptiveLine("{\"a\":1}") + "\n" +
                            log + "\n" + ranksLine(kRank0) + "\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(event_type(events[0]), "log");
  EXPECT_EQ(event_type(events[1]), "ranks");
  EXPECT_EQ(reader.stats().malformed, 2);
  EXPECT_EQ(reader.stats().events, 2);
}

}  // namespace
}  // namespace moe::protocol

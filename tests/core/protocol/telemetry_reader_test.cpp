// TelemetryReader on partial, broken, unknown and hostile input: counts, never throws.
#include "protocol/telemetry_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace moe::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kStep =
    R"({"v":1,"type":"step","t":1,"step":7,"loss":2,"task_loss":2,"aux_loss":0,"z_loss":0,)"
    R"("lr":0.1,"grad_norm":1,"tokens":64,"tokens_per_s":100,"step_ms":5})";
const std::string kLog = R"({"v":1,"type":"log","t":2,"level":"info","msg":"hi"})";

LineKind kind_of(const std::string& line, std::string* error = nullptr) {
  LineKind kind;
  parse_event_line(line, &kind, error);
  return kind;
}

TEST(ParseEventLine, Kinds) {
  EXPECT_EQ(kind_of(kStep), LineKind::kEvent);
  EXPECT_EQ(kind_of(kStep + "\r"), LineKind::kEvent);
  EXPECT_EQ(kind_of(""), LineKind::kBlank);
  EXPECT_EQ(kind_of(" \t\r"), LineKind::kBlank);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"gpu_temp","t":1,"celsius":80})"), LineKind::kUnknown);
  EXPECT_EQ(kind_of(R"({"v":2,"type":"step","t":1})"), LineKind::kUnknown);
  for (const char* bad : {"not json", "[1,2]", "42", "null", "{}", R"({"type":"step"})",
                          R"({"v":"1","type":"step","t":0})", R"({"v":0,"type":"log","t":0})",
                          R"({"v":1.5,"type":"log","t":0})", R"({"v":1,"type":7,"t":0})",
                          R"({"v":1,"t":0})", "{\"v\":1,", "\xff\xfe"}) {
    EXPECT_EQ(kind_of(bad), LineKind::kMalformed) << bad;
  }
}

TEST(ParseEventLine, UnknownKeysIgnored) {
  auto e = parse_event_line(R"({"v":1,"type":"log","t":0,"level":"info","msg":"m","extra":[1]})");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(std::get<LogEvent>(*e).msg, "m");
}

TEST(ParseEventLine, WrongFieldTypesAreMalformed) {
  std::string error;
  EXPECT_EQ(kind_of(R"({"v":1,"type":"log","t":0,"level":"info"})", &error), LineKind::kMalformed);
  EXPECT_EQ(error, "log: missing \"msg\"");
  EXPECT_EQ(kind_of(R"({"v":1,"type":"checkpoint","t":0,"step":"1","path":"p"})", &error),
            LineKind::kMalformed);
  EXPECT_EQ(error, "checkpoint: \"step\": expected an integer, got string \"1\"");
  EXPECT_EQ(kind_of(R"({"v":1,"type":"checkpoint","t":"x","step":1,"path":"p"})", &error),
            LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("\"t\": expected a number"));
  EXPECT_EQ(kind_of(R"({"v":1,"type":"checkpoint","step":1,"path":"p"})", &error),
            LineKind::kMalformed);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"checkpoint","t":0,"step":1.5,"path":"p"})"),
            LineKind::kMalformed);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"phases","t":0,"step":1,"ms":{"gate":"fast"}})"),
            LineKind::kMalformed);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"phases","t":0,"step":1,"ms":[1]})"), LineKind::kMalformed);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"run_start","t":0,"run_id":"r","world_size":1,"config":1})"),
            LineKind::kMalformed);
  EXPECT_EQ(kind_of(R"({"v":1,"type":"run_end","t":0,"status":"failed","steps":1,"error":5})"),
            LineKind::kMalformed);
}

TEST(ParseEventLine, ExpertLoadArraysMustAgree) {
  const std::string base =
      R"({"v":1,"type":"expert_load","t":0,"step":1,"layer":0,"capacity":4,"dropped_frac":0,)"
      R"("cv":0,"max_over_mean":1,"load_entropy":1,"router_entropy":1,"dead_experts":0,)"
      R"("l_aux":1,"z_loss":0,)";
  EXPECT_EQ(kind_of(base + R"("counts":[1,2],"kept":[1,2],"importance":[0.5,null]})"),
            LineKind::kEvent);
  std::string error;
  EXPECT_EQ(kind_of(base + R"("counts":[1,2],"kept":[1],"importance":[0.5,0.5]})", &error),
            LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("differ in length"));
  EXPECT_EQ(kind_of(base + R"("counts":[1,"2"],"kept":[1,2],"importance":[0.5,0.5]})"),
            LineKind::kMalformed);
  EXPECT_EQ(kind_of(base + R"("counts":[1,2],"kept":[1,2],"importance":[0.5,true]})"),
            LineKind::kMalformed);
  auto e = parse_event_line(base + R"("counts":[1,2],"kept":[1,2],"importance":[0.5,null]})");
  EXPECT_TRUE(std::isnan(std::get<ExpertLoadEvent>(*e).importance[1]));
}

// moe.bias_balancing's selection bias: optional, one number per expert when present.
TEST(ParseEventLine, ExpertLoadBias) {
  const std::string base =
      R"({"v":1,"type":"expert_load","t":0,"step":1,"layer":0,"capacity":4,"dropped_frac":0,)"
      R"("cv":0,"max_over_mean":1,"load_entropy":1,"router_entropy":1,"dead_experts":0,)"
      R"("l_aux":1,"z_loss":0,"counts":[1,2],"kept":[1,2],"importance":[0.5,0.5])";
  auto without = parse_event_line(base + "}");
  ASSERT_TRUE(without.has_value());
  EXPECT_FALSE(std::get<ExpertLoadEvent>(*without).bias.has_value());
  EXPECT_FALSE(to_json(*without).contains("bias"));  // absent stays absent when written
  auto with = parse_event_line(base + R"(,"bias":[0.25,-0.125]})");
  ASSERT_TRUE(with.has_value());
  EXPECT_THAT(*std::get<ExpertLoadEvent>(*with).bias, ElementsAre(0.25, -0.125));
  EXPECT_EQ(to_json(*with)["bias"], nlohmann::json::parse("[0.25,-0.125]"));
  auto null_bias = parse_event_line(base + R"(,"bias":null})");  // optional: null reads unset
  ASSERT_TRUE(null_bias.has_value());
  EXPECT_FALSE(std::get<ExpertLoadEvent>(*null_bias).bias.has_value());

  std::string error;
  EXPECT_EQ(kind_of(base + R"(,"bias":[0.25]})", &error), LineKind::kMalformed);
  EXPECT_EQ(error, "expert_load: \"bias\": expected 2 numbers (one per expert), got 1");
  EXPECT_EQ(kind_of(base + R"(,"bias":0.25})", &error), LineKind::kMalformed);
  EXPECT_EQ(error, "expert_load: \"bias\": expected an array, got number 0.25");
  EXPECT_EQ(kind_of(base + R"(,"bias":[0.25,"x"]})", &error), LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("\"bias\": expected an array of numbers"));

  // In a stream, the bad line is counted as malformed and the good ones still arrive.
  TelemetryReader reader;
  auto events =
      reader.feed(base + R"(,"bias":[1,2,3]})" + "\n" + base + R"(,"bias":[1,2]})" + "\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(reader.stats().malformed, 1);
  EXPECT_THAT(reader.last_error(), HasSubstr("\"bias\""));
}

TEST(ParseEventLine, OptionalFields) {
  auto e = parse_event_line(R"({"v":1,"type":"eval","t":0,"step":1,"loss":1})");
  ASSERT_TRUE(e.has_value());
  EXPECT_FALSE(std::get<EvalEvent>(*e).accuracy.has_value());
  e = parse_event_line(R"({"v":1,"type":"eval","t":0,"step":1,"loss":1,"accuracy":null})");
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(std::isnan(*std::get<EvalEvent>(*e).accuracy));
  e = parse_event_line(
      R"({"v":1,"type":"run_start","t":0,"run_id":"r","world_size":1,"config":{}})");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(std::get<RunStartEvent>(*e).host, "");
}

TEST(TelemetryReader, CountsMixedStream) {
  TelemetryReader reader;
  std::string stream = kStep + "\n" + "garbage\n" + "\n" + R"({"v":1,"type":"new_thing","t":0})" +
                       "\r\n" + kLog + "\r\n" + "{\"v\":1}\n";
  auto events = reader.feed(stream);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<StepEvent>(events[0]).step, 7);
  EXPECT_EQ(std::get<LogEvent>(events[1]).msg, "hi");
  const auto& s = reader.stats();
  EXPECT_EQ(s.lines, 5);
  EXPECT_EQ(s.events, 2);
  EXPECT_EQ(s.unknown, 1);
  EXPECT_EQ(s.malformed, 2);
  EXPECT_EQ(s.oversized, 0);
  EXPECT_EQ(reader.last_error(), "missing \"type\" string");
}

TEST(TelemetryReader, ByteByByteEqualsWhole) {
  std::string stream = kStep + "\r\n" + kLog + "\n" + kStep + "\n";
  TelemetryReader whole, bytewise;
  auto a = whole.feed(stream);
  std::vector<TelemetryEvent> b;
  for (char c : stream) {
    for (auto& e : bytewise.feed(std::string_view(&c, 1))) b.push_back(std::move(e));
  }
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(to_json(a[i]), to_json(b[i]));
}

TEST(TelemetryReader, RandomChunkingEqualsWhole) {
  std::string stream;
  for (int i = 0; i < 50; ++i) stream += (i % 3 ? kStep : kLog) + (i % 2 ? "\r\n" : "\n");
  std::mt19937 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    TelemetryReader reader;
    size_t count = 0, pos = 0;
    while (pos < stream.size()) {
      size_t n = std::uniform_int_distribution<size_t>(0, 200)(rng);
      count += reader.feed(std::string_view(stream).substr(pos, n)).size();
      pos += n;
    }
    EXPECT_EQ(count, 50u);
    EXPECT_EQ(reader.stats().malformed, 0);
  }
}

TEST(TelemetryReader, PartialLastLineNeedsFinish) {
  TelemetryReader reader;
  EXPECT_TRUE(reader.feed(kLog).empty());
  EXPECT_EQ(reader.pending_bytes(), kLog.size());
  auto events = reader.finish();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(reader.pending_bytes(), 0u);
  EXPECT_TRUE(reader.finish().empty());
  // A cut line at the end of a stream is malformed, not an error.
  EXPECT_TRUE(reader.feed(kLog.substr(0, 10)).empty());
  EXPECT_TRUE(reader.finish().empty());
  EXPECT_EQ(reader.stats().malformed, 1);
}

TEST(TelemetryReader, OversizedLinesDroppedWithoutBuffering) {
  TelemetryReader reader(100);
  std::string huge =
      R"({"v":1,"type":"log","t":0,"level":"info","msg":")" + std::string(500, 'x') + "\"}";
  // Delivered in pieces: the reader must not hold more than its limit.
  std::vector<TelemetryEvent> events;
  for (size_t pos = 0; pos < huge.size(); pos += 60) {
    auto got = reader.feed(std::string_view(huge).substr(pos, 60));
    events.insert(events.end(), got.begin(), got.end());
    EXPECT_LE(reader.pending_bytes(), 100u);
  }
  auto got = reader.feed("\n" + kLog + "\n");
  events.insert(events.end(), got.begin(), got.end());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<LogEvent>(events[0]).msg, "hi");
  EXPECT_EQ(reader.stats().oversized, 1);
  EXPECT_EQ(reader.stats().malformed, 1);
  EXPECT_EQ(reader.stats().lines, 2);
  // In one chunk as well.
  auto again = reader.feed(huge + "\n" + kLog + "\n");
  EXPECT_EQ(again.size(), 1u);
  EXPECT_EQ(reader.stats().oversized, 2);
}

TEST(TelemetryReader, ExactlyAtLimitIsRead) {
  TelemetryReader reader(kLog.size());
  EXPECT_EQ(reader.feed(kLog + "\n").size(), 1u);
  EXPECT_EQ(reader.feed(kLog.substr(0, 5)).size(), 0u);
  EXPECT_EQ(reader.feed(kLog.substr(5) + "\n").size(), 1u);
  EXPECT_EQ(reader.stats().oversized, 0);
}

TEST(TelemetryReader, GarbageNeverThrows) {
  std::mt19937 rng(7);
  TelemetryReader reader(4096);
  for (int i = 0; i < 2000; ++i) {
    std::string chunk(std::uniform_int_distribution<int>(0, 300)(rng), '\0');
    for (char& c : chunk) c = static_cast<char>(rng());
    if (i % 5 == 0) chunk += "{\"v\":1,\"type\":\"log\",\"t\":[";
    EXPECT_NO_THROW(reader.feed(chunk));
  }
  EXPECT_NO_THROW(reader.finish());
  EXPECT_EQ(reader.stats().events, 0);
  EXPECT_EQ(reader.stats().lines, reader.stats().malformed + reader.stats().unknown);
}

TEST(TelemetryReader, DeeplyNestedInputIsMalformedNotACrash) {
  std::string deep =
      R"({"v":1,"type":"run_start","t":0,"run_id":"r","world_size":1,"config":{"a":)" +
      std::string(100000, '[') + std::string(100000, ']') + "}}";
  LineKind kind;
  std::string error;
  parse_event_line(deep, &kind, &error);
  EXPECT_EQ(kind, LineKind::kMalformed);
  EXPECT_THAT(error, HasSubstr("nested too deeply"));
}

TEST(TelemetryReader, SinkOverload) {
  TelemetryReader reader;
  std::vector<std::string> types;
  reader.feed(kStep + "\n" + kLog + "\n",
              [&](TelemetryEvent&& e) { types.emplace_back(event_type(e)); });
  EXPECT_THAT(types, ElementsAre("step", "log"));
}

}  // namespace
}  // namespace moe::protocol

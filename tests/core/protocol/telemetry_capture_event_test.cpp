// The capture event (telemetry.capture_every): its line, what the reader accepts, and the paths
// it refuses because they would leave the run directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "protocol/telemetry_reader.h"

namespace moe::protocol {
namespace {

using ::testing::HasSubstr;

std::string captureLine(const std::string& path, const std::string& rest = "") {
  return R"({"v":1,"type":"capture","t":2.5,"step":20,"layer":1,"path":")" + path +
         R"(","bytes":4096,"tokens":128)" + rest + "}";
}

TEST(CaptureEventFormat, KeysInOrder) {
  CaptureEvent e;
  e.t = 1.0;
  e.step = 20;
  e.layer = 3;
  e.path = "captures/step-20/layer-3.safetensors";
  e.bytes = 1234;
  e.tokens = 64;
  EXPECT_EQ(event_line(to_json(e)),
            R"({"v":1,"type":"capture","t":1.0,"bytes":1234,"layer":3,)"
            R"("path":"captures/step-20/layer-3.safetensors","step":20,"tokens":64})");
}

TEST(CaptureEventParse, ReadsEveryField) {
  LineKind kind;
  auto e =
      parse_event_line(captureLine("captures/step-20/layer-1.safetensors", R"(,"new":[1])"), &kind);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(kind, LineKind::kEvent);
  const auto& c = std::get<CaptureEvent>(*e);
  EXPECT_EQ(c.t, 2.5);
  EXPECT_EQ(c.step, 20);
  EXPECT_EQ(c.layer, 1);
  EXPECT_EQ(c.path, "captures/step-20/layer-1.safetensors");
  EXPECT_EQ(c.bytes, 4096);
  EXPECT_EQ(c.tokens, 128);
  EXPECT_EQ(event_type(*e), "capture");
}

TEST(CaptureEventParse, PathMustStayInsideTheRunDirectory) {
  for (const char* path : {"", "/etc/passwd", "../other/layer-0.safetensors",
                           "captures/../../x.safetensors", "captures/..", "..", "a\\\\b"}) {
    LineKind kind;
    std::string error;
    EXPECT_FALSE(parse_event_line(captureLine(path), &kind, &error).has_value()) << path;
    EXPECT_EQ(kind, LineKind::kMalformed) << path;
    EXPECT_THAT(error, HasSubstr("capture: \"path\": expected a path inside the run directory"))
        << path;
  }
  // Names that merely contain dots are fine.
  for (const char* path : {"captures/step-1/..layer-0.safetensors", "captures/./x", "a..b"}) {
    EXPECT_TRUE(parse_event_line(captureLine(path)).has_value()) << path;
  }
}

TEST(CaptureEventParse, MalformedValues) {
  std::string error;
  LineKind kind;
  parse_event_line(R"({"v":1,"type":"capture","t":0,"step":1,"layer":0,"bytes":1,"tokens":1})",
                   &kind, &error);
  EXPECT_EQ(kind, LineKind::kMalformed);
  EXPECT_EQ(error, "capture: missing \"path\"");
  parse_event_line(
      R"({"v":1,"type":"capture","t":0,"step":1,"layer":"0","path":"p","bytes":1,"tokens":1})",
      &kind, &error);
  EXPECT_EQ(kind, LineKind::kMalformed);
  EXPECT_EQ(error, "capture: \"layer\": expected an integer, got string \"0\"");
  parse_event_line(
      R"({"v":1,"type":"capture","t":0,"step":1,"layer":0,"path":"p","bytes":-1,"tokens":1})",
      &kind, &error);
  EXPECT_EQ(kind, LineKind::kMalformed);
  EXPECT_EQ(error, "capture: step, layer, bytes and tokens must be >= 0");
}

}  // namespace
}  // namespace moe::protocol

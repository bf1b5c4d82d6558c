// replay --serve's line protocol: what one side writes the other reads back whole, and the readers
// refuse what is not a line of the protocol with a message saying why.
#include <gtest/gtest.h>

#include <cmath>

#include "protocol/replay_lines.h"

namespace moe::protocol {
namespace {

using json = nlohmann::json;

TEST(ReplayLines, ARequestReadsBackAsWritten) {
  ReplayRequest r;
  r.id = 9;
  r.moe = {{"capacity_factor", -1.5}, {"top_k", 3}};
  r.seed = 42;
  const std::string line = replay_request_line(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const ReplayRequestRead read = parse_replay_request(line, 1);
  ASSERT_TRUE(read.request) << read.error;
  EXPECT_EQ(read.request->id, 9);
  EXPECT_EQ(read.request->moe, r.moe);
  EXPECT_EQ(read.request->seed, 42);

  ReplayRequest plain;  // no id, no seed: both stay absent
  const ReplayRequestRead back = parse_replay_request(replay_request_line(plain), 2);
  ASSERT_TRUE(back.request) << back.error;
  EXPECT_TRUE(back.request->id.is_null());
  EXPECT_FALSE(back.request->seed);
}

TEST(ReplayLines, BadRequestsSayWhatIsWrongAndKeepTheirId) {
  const auto error = [](std::string_view line) {
    const ReplayRequestRead read = parse_replay_request(line, 7);
    EXPECT_FALSE(read.request) << line;
    return read;
  };
  EXPECT_EQ(error("not json").error.rfind("line 7: not valid JSON", 0), 0u);
  // Found by replay_lines_fuzzer: a number no double holds threw out of the reader (and would
  // have ended the server).
  EXPECT_EQ(error("4e24999999999999999999999999e2").error.rfind("line 7: not valid JSON", 0), 0u);
  EXPECT_EQ(error(R"({"id":1,"moe":{"capacity_factor":1e999}})").error.rfind("line 7:", 0), 0u);
  EXPECT_NE(error("[1,2]").error.find("expected a JSON object"), std::string::npos);
  EXPECT_NE(error(R"({"id":[1]})").error.find("\"id\": expected a number or a string"),
            std::string::npos);
  const ReplayRequestRead unknown = error(R"({"id":"a","colour":"red"})");
  EXPECT_EQ(unknown.id, "a");
  EXPECT_NE(unknown.error.find("unknown key \"colour\""), std::string::npos);
  const ReplayRequestRead moe = error(R"({"id":3,"moe":5})");
  EXPECT_EQ(moe.id, 3);
  EXPECT_EQ(moe.error.rfind("/moe: expected an object", 0), 0u);
  EXPECT_EQ(error(R"({"id":4,"seed":1.5})").error.rfind("/seed: expected an integer", 0), 0u);
}

TEST(ReplayLines, AnswersReadyAndErrorsReadBackAsWritten) {
  ReplayAnswer a;
  a.capacity = 5;
  a.counts = {7, 1, 0};
  a.kept = {5, 1, 0};
  a.importance = {0.5, 0.3, 0.2};
  a.l_aux = 1.25;
  a.dropped_frac = 0.25;
  a.cv = std::nan("");  // undefined: null in the line, NaN again when read
  a.max_over_mean = 2.625;
  a.dead_experts = 1;
  a.tokens = 8;
  a.ms = 0.7;
  const ReplayLine answer = parse_replay_line(replay_answer_line(3, a));
  ASSERT_EQ(answer.kind, ReplayLine::Kind::Answer) << answer.error;
  EXPECT_EQ(answer.id, 3);
  EXPECT_EQ(answer.answer.counts, a.counts);
  EXPECT_EQ(answer.answer.kept, a.kept);
  EXPECT_EQ(answer.answer.importance, a.importance);
  EXPECT_EQ(answer.answer.dropped(), 2);
  EXPECT_TRUE(std::isnan(answer.answer.cv));
  EXPECT_DOUBLE_EQ(answer.answer.max_over_mean, 2.625);

  const ReplayLine ready = parse_replay_line(replay_ready_line(64, 4096, 512));
  ASSERT_EQ(ready.kind, ReplayLine::Kind::Ready);
  EXPECT_EQ(ready.experts, 64);
  EXPECT_EQ(ready.tokens, 4096);
  EXPECT_EQ(ready.dim, 512);

  const ReplayLine refused = parse_replay_line(replay_error_line(4, "/moe/top_k: must be <= 3"));
  ASSERT_EQ(refused.kind, ReplayLine::Kind::Error);
  EXPECT_EQ(refused.id, 4);
  EXPECT_EQ(refused.error, "/moe/top_k: must be <= 3");
  const ReplayLine unreadable = parse_replay_line(replay_error_line(nullptr, "line 2: not JSON"));
  ASSERT_EQ(unreadable.kind, ReplayLine::Kind::Error);
  EXPECT_FALSE(unreadable.id);
  // Bad UTF-8 in a message is replaced, not thrown.
  EXPECT_EQ(parse_replay_line(replay_error_line(1, "bad \xff byte")).kind, ReplayLine::Kind::Error);
}

TEST(ReplayLines, AnswerLinesWithoutAFieldAreMalformedAndNameIt) {
  const ReplayLine partial = parse_replay_line(R"({"id":5,"capacity":5,"expert_counts":[1]})");
  EXPECT_EQ(partial.kind, ReplayLine::Kind::Malformed);
  EXPECT_NE(partial.error.find("expert_kept"), std::string::npos) << partial.error;
  EXPECT_EQ(parse_replay_line("garbage").kind, ReplayLine::Kind::Malformed);
  EXPECT_EQ(parse_replay_line(R"({"ready":true})").kind, ReplayLine::Kind::Malformed);
  EXPECT_EQ(parse_replay_line(R"({"capacity":5})").kind, ReplayLine::Kind::Malformed);
}

}  // namespace
}  // namespace moe::protocol

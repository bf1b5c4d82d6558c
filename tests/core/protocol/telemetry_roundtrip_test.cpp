// TelemetryWriter -> TelemetryReader for every event type, and the writer's line format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include "protocol/run_config.h"
#include "protocol/telemetry_events.h"
#include "protocol/telemetry_reader.h"
#include "test_util.h"

namespace moe::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::TempDir;
using json = nlohmann::json;

std::vector<TelemetryEvent> all_events() {
  RunConfig config;
  config.name = "rt";
  RunStartEvent start;
  start.t = 0.0;
  start.run_id = "20240101-000000-rt";
  start.config = to_json(config);
  start.world_size = 2;
  start.device = "cpu";
  start.host = "box";
  start.engine_version = "0.1.0";
  start.torch_version = "1.13.1";
  start.expert_parameters = 1 << 20;
  start.dense_parameters = 4096;
  start.resumed_step = 40;
  start.restart = 2;

  StepEvent step;
  step.t = 1.5;
  step.step = 3;
  step.loss = 2.25;
  step.task_loss = 2.0;
  step.aux_loss = 0.25;
  step.z_loss = 0.001;
  step.lr = 3e-4;
  step.grad_norm = 0.75;
  step.tokens = 2048;
  step.tokens_per_s = 12345.5;
  step.step_ms = 165.9;
  step.tflops = 0.125;

  ExpertLoadEvent load;
  load.t = 1.6;
  load.step = 3;
  load.layer = 1;
  load.counts = {10, 0, 6, 16};
  load.kept = {8, 0, 6, 8};
  load.capacity = 8;
  load.dropped_frac = 0.25;
  load.cv = 0.5;
  load.max_over_mean = 2.0;
  load.load_entropy = 0.8;
  load.router_entropy = 0.9;
  load.dead_experts = 1;
  load.importance = {0.25, 0.125, 0.375, 0.25};
  load.l_aux = 1.125;
  load.z_loss = 0.5;
  load.bias = std::vector<double>{-0.001, 0.0, 0.0025, -0.0015};

  PhasesEvent phases;
  phases.t = 1.7;
  phases.step = 3;
  for (size_t i = 0; i < kPhaseNames.size(); ++i) {
    phases.ms[std::string(kPhaseNames[i])] = 0.5 * static_cast<double>(i + 1);
  }

  EvalEvent eval;
  eval.t = 2.0;
  eval.step = 10;
  eval.loss = 1.5;
  eval.accuracy = 0.875;
  EvalEvent eval_lm = eval;
  eval_lm.accuracy.reset();

  CheckpointEvent ckpt;
  ckpt.t = 2.5;
  ckpt.step = 10;
  ckpt.path = "checkpoints/step-10";

  LogEvent log;
  log.t = 2.6;
  log.level = "warn";
  log.msg = "line one\nline \"two\" \xc3\xbc";

  RunEndEvent end;
  end.t = 3.0;
  end.status = "failed";
  end.steps = 10;
  end.error = "out of memory";
  RunEndEvent done = end;
  done.status = "completed";
  done.error.reset();

  RanksEvent ranks;
  ranks.t = 1.8;
  ranks.step = 3;
  ranks.ranks = {{0, "node-a", 165.5, 120.25, 30.5, 12.75, 2048, int64_t{3} << 33},
                 {1, "node-b", 171.0, 118.0, 38.0, 13.5, 1984, 1 << 30}};

  AdaptiveREvent adaptive;
  adaptive.t = 1.9;
  adaptive.step = 3;
  adaptive.r = 1;
  adaptive.tried = {{0, 12.5}, {1, 9.125}, {12, 10.0}};
  adaptive.reason = "r=1 fastest of 3";

  CaptureEvent capture;
  capture.t = 2.1;
  capture.step = 10;
  capture.layer = 1;
  capture.path = "captures/step-10/layer-1.safetensors";
  capture.bytes = 1 << 22;
  capture.tokens = 4096;

  return {start, step, load, phases, eval, eval_lm, ckpt, log, end, done, ranks, adaptive, capture};
}

TEST(TelemetryRoundTrip, EveryEventThroughStreamAndFile) {
  TempDir dir;
  const std::string path = dir.file("metrics.jsonl");
  std::ostringstream out;
  const std::vector<TelemetryEvent> events = all_events();
  {
    TelemetryWriter writer(&out, path);
    for (const TelemetryEvent& e : events) writer.write(to_json(e));
    EXPECT_TRUE(writer.file_ok());
  }
  std::ifstream in(path, std::ios::binary);
  std::string file_text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(file_text, out.str());

  TelemetryReader reader;
  std::vector<TelemetryEvent> back = reader.feed(file_text);
  EXPECT_EQ(reader.stats().events, static_cast<int64_t>(events.size()));
  EXPECT_EQ(reader.stats().malformed, 0);
  EXPECT_EQ(reader.stats().unknown, 0);
  EXPECT_EQ(reader.pending_bytes(), 0u);
  ASSERT_EQ(back.size(), events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(event_type(back[i]), event_type(events[i]));
    // Comparing the JSON forms compares every field.
    EXPECT_EQ(to_json(back[i]), to_json(events[i])) << i;
  }
  // Spot checks on the typed side.
  const auto& load = std::get<ExpertLoadEvent>(back[2]);
  EXPECT_THAT(load.counts, ElementsAre(10, 0, 6, 16));
  EXPECT_THAT(load.importance, ElementsAre(0.25, 0.125, 0.375, 0.25));
  EXPECT_EQ(load.capacity, 8);
  ASSERT_TRUE(load.bias.has_value());
  EXPECT_THAT(*load.bias, ElementsAre(-0.001, 0.0, 0.0025, -0.0015));
  EXPECT_EQ(std::get<RunStartEvent>(back[0]).config["name"], "rt");
  EXPECT_FALSE(std::get<EvalEvent>(back[5]).accuracy.has_value());
  EXPECT_EQ(std::get<LogEvent>(back[7]).msg, "line one\nline \"two\" \xc3\xbc");
  EXPECT_EQ(std::get<RunEndEvent>(back[8]).error, "out of memory");
  EXPECT_EQ(event_time(back[1]), 1.5);
  const auto& ranks = std::get<RanksEvent>(back[10]);
  ASSERT_EQ(ranks.ranks.size(), 2u);
  EXPECT_EQ(ranks.ranks[1].host, "node-b");
  EXPECT_EQ(ranks.ranks[1].a2a_ms, 38.0);
  EXPECT_EQ(ranks.ranks[0].peak_bytes, int64_t{3} << 33);
  const auto& adaptive = std::get<AdaptiveREvent>(back[11]);
  EXPECT_EQ(adaptive.r, 1);
  EXPECT_EQ(adaptive.tried.at(12), 10.0);
  EXPECT_EQ(adaptive.reason, "r=1 fastest of 3");
  const auto& capture = std::get<CaptureEvent>(back[12]);
  EXPECT_EQ(capture.path, "captures/step-10/layer-1.safetensors");
  EXPECT_EQ(capture.bytes, 1 << 22);
  EXPECT_EQ(capture.tokens, 4096);
}

TEST(TelemetryWriterFormat, ParallelEventsKeys) {
  RanksEvent ranks;
  ranks.step = 5;
  ranks.ranks = {{0, "h", 1.5, 1.0, 0.25, 0.125, 64, 1024}};
  EXPECT_EQ(event_line(to_json(ranks)),
            R"({"v":1,"type":"ranks","t":0.0,"ranks":[{"a2a_ms":0.25,"allreduce_ms":0.125,)"
            R"("compute_ms":1.0,"host":"h","peak_bytes":1024,"rank":0,"step_ms":1.5,)"
            R"("tokens":64}],"step":5})");
  AdaptiveREvent adaptive;
  adaptive.step = 7;
  adaptive.r = 1;
  adaptive.tried = {{0, 12.5}, {1, 9.1}};
  adaptive.reason = "why";
  EXPECT_EQ(event_line(to_json(adaptive)),
            R"({"v":1,"type":"adaptive_r","t":0.0,"r":1,"reason":"why","step":7,)"
            R"("tried":{"0":12.5,"1":9.1}})");
}

TEST(TelemetryWriterFormat, HeaderKeysFirstOneLine) {
  StepEvent step;
  step.t = 0.25;
  std::string line = event_line(to_json(step));
  EXPECT_THAT(line, StartsWith(R"({"v":1,"type":"step","t":0.25,)"));
  EXPECT_EQ(line.find('\n'), std::string::npos);
  LogEvent log;
  log.msg = "a\nb\r\n";
  EXPECT_EQ(event_line(to_json(log)).find('\n'), std::string::npos);
}

TEST(TelemetryWriterFormat, NonFiniteBecomesNullAndReadsAsNaN) {
  StepEvent step;
  step.loss = std::numeric_limits<double>::quiet_NaN();
  step.grad_norm = std::numeric_limits<double>::infinity();
  std::string line = event_line(to_json(step));
  EXPECT_THAT(line, HasSubstr(R"("loss":null)"));
  EXPECT_THAT(line, HasSubstr(R"("grad_norm":null)"));
  EXPECT_FALSE(json::parse(line).is_discarded());
  LineKind kind;
  auto back = parse_event_line(line, &kind);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(std::isnan(std::get<StepEvent>(*back).loss));
  EXPECT_TRUE(std::isnan(std::get<StepEvent>(*back).grad_norm));
  EXPECT_EQ(std::get<StepEvent>(*back).lr, 0.0);
}

TEST(TelemetryWriterFormat, InvalidUtf8DoesNotThrow) {
  LogEvent log;
  log.msg = "bad \xff\xfe bytes";
  std::string line;
  EXPECT_NO_THROW(line = event_line(to_json(log)));
  auto back = parse_event_line(line);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(std::get<LogEvent>(*back).msg, "bad \xef\xbf\xbd\xef\xbf\xbd bytes");
}

TEST(TelemetryWriter, EmitStampsTime) {
  std::ostringstream out;
  TelemetryWriter writer(&out, "", TelemetryWriter::Clock::now() - std::chrono::seconds(5));
  StepEvent step;
  step.t = -1;
  writer.write_event(step);
  auto back = parse_event_line(out.str());
  ASSERT_TRUE(back.has_value());
  EXPECT_GE(event_time(*back), 5.0);
  EXPECT_LT(event_time(*back), 60.0);
}

TEST(TelemetryWriter, AppendsToExistingFile) {
  TempDir dir;
  const std::string path = dir.write("metrics.jsonl",
                                     "{\"v\":1,\"type\":\"log\",\"t\":0,"
                                     "\"level\":\"info\",\"msg\":\"old\"}\n");
  {
    TelemetryWriter writer(nullptr, path);
    writer.write_event(LogEvent{0, "info", "new"});
  }
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TelemetryReader reader;
  auto events = reader.feed(text);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<LogEvent>(events[0]).msg, "old");
  EXPECT_EQ(std::get<LogEvent>(events[1]).msg, "new");
}

TEST(TelemetryWriter, UnopenableFileThrows) {
  TempDir dir;
  EXPECT_THROW(TelemetryWriter(nullptr, dir.file("no/dir/metrics.jsonl")), std::runtime_error);
}

TEST(TelemetryWriter, ConcurrentWritersNeverInterleaveLines) {
  TempDir dir;
  const std::string path = dir.file("metrics.jsonl");
  std::ostringstream out;
  constexpr int kThreads = 4, kPerThread = 500;
  {
    TelemetryWriter writer(&out, path);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&writer, t] {
        for (int i = 0; i < kPerThread; ++i) {
          ExpertLoadEvent e;
          e.step = i;
          e.layer = t;
          e.counts.assign(64, i);
          e.kept.assign(64, i);
          e.importance.assign(64, 1.0 / 64);
          writer.write_event(e);
        }
      });
    }
    for (auto& th : threads) th.join();
  }
  for (const std::string& text : {out.str(), [&] {
                                    std::ifstream in(path);
                                    return std::string((std::istreambuf_iterator<char>(in)),
                                                       std::istreambuf_iterator<char>());
                                  }()}) {
    TelemetryReader reader;
    std::vector<int> per_layer(kThreads, 0);
    for (const auto& e : reader.feed(text)) ++per_layer[std::get<ExpertLoadEvent>(e).layer];
    EXPECT_EQ(reader.stats().malformed, 0);
    EXPECT_THAT(per_layer, ElementsAre(kPerThread, kPerThread, kPerThread, kPerThread));
  }
}

}  // namespace
}  // namespace moe::protocol

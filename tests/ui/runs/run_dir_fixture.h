// Test helper: writes run directories (docs/PROTOCOL.md, "The run directory") with a metrics.jsonl
// in the telemetry format of docs/PROTOCOL.md, "Telemetry", built from moe_protocol's event
// structs.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/telemetry/telemetry_protocol.h"

namespace moe::test {

struct FakeRun {
  std::string run_id = "20250102-030405-demo";
  nlohmann::json config = {{"name", "demo"}, {"train", {{"steps", 5}}}, {"moe", {{"top_k", 2}}}};
  std::string host = "box";
  std::vector<double> losses = {3.0, 2.0, 2.5};
  std::vector<double> tokens_per_s = {100.0, 300.0, 200.0};
  // (loss, accuracy) of evals at steps 1, 2, ...
  std::vector<std::pair<double, std::optional<double>>> evals;
  std::optional<std::string> end_status;  // "completed", "failed", "cancelled"; none: no run_end
  std::string error;
};

inline std::string metricsText(const FakeRun& run) {
  namespace protocol = moe::protocol;
  std::string out;
  protocol::RunStartEvent start;
  start.run_id = run.run_id;
  start.config = run.config;
  start.host = run.host;
  start.device = "cpu";
  start.world_size = 2;
  out += protocol::event_line(protocol::to_json(start)) + "\n";
  const int64_t steps = static_cast<int64_t>(run.losses.size());
  for (int64_t i = 0; i < steps; ++i) {
    protocol::StepEvent step;
    step.t = 0.5 * static_cast<double>(i + 1);
    step.step = i + 1;
    step.loss = run.losses[i];
    step.tokens_per_s = i < static_cast<int64_t>(run.tokens_per_s.size()) ? run.tokens_per_s[i] : 0;
    step.step_ms = 10.0 * static_cast<double>(i + 1);
    out += protocol::event_line(protocol::to_json(step)) + "\n";
  }
  int64_t eval_step = 0;
  for (const auto& [loss, accuracy] : run.evals) {
    protocol::EvalEvent eval;
    eval.step = ++eval_step;  // one per step: a second eval of a step replaces the first
    eval.loss = loss;
    eval.accuracy = accuracy;
    out += protocol::event_line(protocol::to_json(eval)) + "\n";
  }
  if (run.end_status) {
    protocol::RunEndEvent end;
    end.status = *run.end_status;
    end.steps = steps;
    if (!run.error.empty()) end.error = run.error;
    out += protocol::event_line(protocol::to_json(end)) + "\n";
  }
  return out;
}

inline bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// <parent>/<name>/metrics.jsonl; returns the directory.
inline QString writeRunDir(const QString& parent, const QString& name, const FakeRun& run) {
  const QString dir = QDir(parent).filePath(name);
  QDir().mkpath(dir);
  writeFile(QDir(dir).filePath(QStringLiteral("metrics.jsonl")),
            QByteArray::fromStdString(metricsText(run)));
  return dir;
}

inline FakeRun finishedRun() {
  FakeRun run;
  run.evals = {{2.8, 0.5}, {2.4, 0.7}, {2.6, 0.6}};
  run.end_status = "completed";
  return run;
}

}  // namespace moe::test

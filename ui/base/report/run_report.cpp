// Reading a run directory into a RunReport (run_report.h).
#include "base/report/run_report.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

#include "base/run/run_files.h"
#include "base/telemetry/run_series.h"
#include "base/telemetry/telemetry_feed.h"

namespace moe::ui {

namespace {

// config.json as the run resolved it; null when it is missing or not a JSON object.
nlohmann::json readConfigFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return nullptr;
  const QByteArray bytes = file.readAll();
  nlohmann::json json = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
  return json.is_object() ? json : nlohmann::json();
}

// The run directory and its metrics.jsonl; an error naming run_dir when it is no run directory.
bool findMetricsFile(const QString& run_dir, QDir* dir, QString* metrics, QString* error) {
  const QFileInfo dir_info(run_dir);
  if (!dir_info.isDir()) {
    *error = run_dir + QStringLiteral(": no such directory");
    return false;
  }
  *dir = QDir(dir_info.absoluteFilePath());
  *metrics = dir->filePath(QLatin1String(run_layout::kMetrics));
  if (!QFileInfo(*metrics).isFile()) {
    *error = run_dir + QStringLiteral(": no metrics.jsonl (not a run directory)");
    return false;
  }
  return true;
}

// Reads metrics.jsonl into series; an error when it holds no telemetry event at all.
bool readTelemetry(const QString& metrics, RunSeries* series, TelemetryFeed::Stats* stats,
                   QString* error) {
  if (!TelemetryFeed::readFile(metrics, series, stats, error)) return false;
  if (stats->events > 0) return true;
  *error = stats->lines == 0
               ? metrics + QStringLiteral(": empty, no telemetry")
               : metrics + QStringLiteral(": no telemetry event in %1 line(s) (%2)")
                               .arg(stats->lines)
                               .arg(stats->last_error.isEmpty() ? QStringLiteral("unknown types")
                                                                : stats->last_error);
  return false;
}

// config.json when the run wrote one, else the config its run_start event carried.
void setConfig(RunReport* r, const QDir& dir) {
  r->config = readConfigFile(dir.filePath(QLatin1String(run_layout::kConfig)));
  r->config_source = QLatin1String(run_layout::kConfig);
  if (!r->config.is_object()) {
    r->config = r->info.config;
    r->config_source = QStringLiteral("run_start");
  }
  if (r->config.contains("name") && r->config["name"].is_string())
    r->name = QString::fromStdString(r->config["name"].get<std::string>());
}

// Moves the telemetry out of snap, keeping only the log lines above info.
void setSeries(RunReport* r, RunSnapshot* snap, const RunSeries& series) {
  r->steps = std::move(snap->steps);
  r->layers = std::move(snap->layers);
  for (const LayerColumns& layer : r->layers)
    r->load.push_back(series.loadMatrix(layer.layer, StepRange::all(), RunReport::kLoadBins));
  r->phases = std::move(snap->phases);
  r->ranks = std::move(snap->ranks);
  r->evals = std::move(snap->evals);
  r->checkpoints = std::move(snap->checkpoints);
  r->adaptive_r = std::move(snap->adaptive_r);
  r->run_end = std::move(snap->run_end);
  for (protocol::LogEvent& line : snap->logs) {
    if (line.level != "info") r->problem_logs.push_back(std::move(line));
  }
  r->routing_warnings = routingWarningHistory(r->layers);
  r->rank_warnings = slowRankHistory(r->ranks);
}

// The run's files: whether it has a trace, and how metrics.jsonl read.
void setFileFacts(RunReport* r, const QDir& dir, const TelemetryFeed::Stats& stats) {
  const QFileInfo trace(dir.filePath(QLatin1String(run_layout::kTrace)));
  r->has_trace = trace.isFile();
  r->trace_bytes = r->has_trace ? trace.size() : 0;
  r->metrics_bytes = stats.file_bytes;
  r->events = stats.events;
  r->malformed_lines = stats.malformed;
  r->unknown_lines = stats.unknown;
  r->last_malformed = stats.last_error;
}

// The run's routing analysis, when analyze wrote one into the run directory.
void setAnalysis(RunReport* r) {
  const QString path = runAnalysisPath(r->run_dir);
  if (!QFileInfo::exists(path)) return;
  AnalysisReport analysis;
  if (readAnalysisReport(path, &analysis, &r->analysis_error)) r->analysis = std::move(analysis);
}

}  // namespace

QString RunReport::status() const {
  return run_end ? QString::fromStdString(run_end->status) : QStringLiteral("no run_end");
}

double RunReport::runSeconds() const {
  double t = 0;
  if (!steps.t.empty()) t = steps.t.back();
  if (run_end) t = std::max(t, run_end->t);
  return t;
}

bool loadRunReport(const QString& run_dir, RunReport* out, QString* error) {
  QDir dir;
  QString metrics;
  if (!findMetricsFile(run_dir, &dir, &metrics, error)) return false;
  RunSeries series;
  TelemetryFeed::Stats stats;
  if (!readTelemetry(metrics, &series, &stats, error)) return false;
  RunSnapshot snap = series.snapshot();
  if (!snap.info.started) {
    *error = metrics + QStringLiteral(": no run_start event, so not a run's telemetry");
    return false;
  }
  RunReport r;
  r.run_dir = dir.absolutePath();
  r.info = std::move(snap.info);
  r.run_id = r.info.run_id.empty() ? dir.dirName() : QString::fromStdString(r.info.run_id);
  setConfig(&r, dir);
  setSeries(&r, &snap, series);
  setFileFacts(&r, dir, stats);
  setAnalysis(&r);
  *out = std::move(r);
  return true;
}

}  // namespace moe::ui

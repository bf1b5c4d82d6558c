// Run directory -> RunRecord (run_directory_index.h).
#include "base/runs/run_directory_index.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <limits>

#include "base/remote/remote_run_record.h"
#include "base/run/run_files.h"
#include "base/telemetry/telemetry_feed.h"

namespace moe::ui {

namespace {

const QString kMetricsFile = QLatin1String(run_layout::kMetrics);
const QString kConfigFile = QLatin1String(run_layout::kConfig);

// Newest finite value, lowest and highest finite value of a column.
struct ColumnSummary {
  std::optional<double> last, min, max;
};

ColumnSummary summarize(const std::vector<double>& values) {
  ColumnSummary out;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    out.last = v;
    out.min = out.min ? std::min(*out.min, v) : v;
    out.max = out.max ? std::max(*out.max, v) : v;
  }
  return out;
}

// <dir>/<file>, or {} when it is absent or not a JSON object.
nlohmann::json readJsonObject(const QString& run_dir, const QString& file_name) {
  QFile file(QDir(run_dir).filePath(file_name));
  if (!file.open(QIODevice::ReadOnly)) return nlohmann::json::object();
  auto config = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
  return config.is_object() ? config : nlohmann::json::object();
}

nlohmann::json readConfigJson(const QString& run_dir) {
  return readJsonObject(run_dir, kConfigFile);
}

// run_id is <yyyymmdd-hhmmss>-<name> (docs/PROTOCOL.md, "The run directory"), in the engine's local
// time.
QDateTime timeFromRunId(const QString& id) {
  if (id.size() < 15 || (id.size() > 15 && id[15] != QLatin1Char('-'))) return {};
  return QDateTime::fromString(id.left(15), QStringLiteral("yyyyMMdd-HHmmss"));
}

void fillConfig(RunRecord* r, nlohmann::json config) {
  r->config = std::move(config);
  r->config_hash = configHash(r->config);
  const auto name = r->config.find("name");
  if (name != r->config.end() && name->is_string()) r->name = QString::fromStdString(*name);
  const auto train = r->config.find("train");
  if (train != r->config.end() && train->is_object()) {
    const auto steps = train->find("steps");
    if (steps != train->end() && steps->is_number_integer()) r->total_steps = steps->get<int64_t>();
  }
}

void fillStepMetrics(RunRecord* r, const StepColumns& steps) {
  const ColumnSummary loss = summarize(steps.loss);
  r->loss_last = loss.last;
  r->loss_min = loss.min;
  r->loss_max = loss.max;
  const ColumnSummary tokens = summarize(steps.tokens_per_s);
  r->tokens_per_s_last = tokens.last;
  r->tokens_per_s_max = tokens.max;
  r->step_ms_last = summarize(steps.step_ms).last;
  if (!steps.step.empty()) r->steps_done = static_cast<int64_t>(steps.step.back());
}

void fillEvalMetrics(RunRecord* r, const std::vector<protocol::EvalEvent>& evals) {
  std::vector<double> loss, accuracy;
  for (const auto& e : evals) {
    loss.push_back(e.loss);
    if (e.accuracy) accuracy.push_back(*e.accuracy);
  }
  const ColumnSummary l = summarize(loss), a = summarize(accuracy);
  r->eval_loss_last = l.last;
  r->eval_loss_best = l.min;
  r->accuracy_last = a.last;
  r->accuracy_best = a.max;
}

void fillStatus(RunRecord* r, const std::optional<protocol::RunEndEvent>& end, bool live) {
  if (!end) {
    r->status = live ? run_status::kRunning : run_status::kIncomplete;
    return;
  }
  if (end->status == "completed") {
    r->status = run_status::kFinished;
  } else if (end->status == "cancelled") {
    r->status = run_status::kCancelled;
  } else {
    r->status = run_status::kFailed;  // "failed", and anything a newer engine may invent
  }
  if (end->error) r->error = QString::fromStdString(*end->error);
  r->steps_done = end->steps;
}

// started_at/ended_at and the file stamp. `last_t`: the newest step's t (seconds since start).
void fillTimes(RunRecord* r, bool ended, double last_t, bool resumed) {
  const QFileInfo metrics(QDir(r->run_dir).filePath(kMetricsFile));
  if (metrics.exists()) {
    r->metrics_modified = metrics.lastModified();
    r->metrics_size = metrics.size();
  }
  r->started_at = timeFromRunId(r->id);
  if (!r->started_at.isValid() && metrics.exists()) {
    r->started_at = metrics.birthTime();
    // Without a birth time: the last write minus the run's t, when t has not restarted (resume).
    if (!r->started_at.isValid() && std::isfinite(last_t) && !resumed) {
      r->started_at = metrics.lastModified().addMSecs(-static_cast<qint64>(last_t * 1000));
    }
  }
  // The run_end line is the file's last write.
  if (ended) r->ended_at = metrics.exists() ? metrics.lastModified() : QDateTime::currentDateTime();
}

// A run on another machine: its target, and while its telemetry has no run_end, the state the app
// last saw there (remote.json), as a run_status where there is one ("starting" is its own).
void applyRemoteRecord(RunRecord* r, const RemoteRunRecord& remote) {
  r->target = remote.target.name;
  if (r->status != run_status::kIncomplete || remote.state.isEmpty()) return;
  r->status = remote.state == QLatin1String("not started") ? run_status::kStarting : remote.state;
  if (r->error.isEmpty()) r->error = remote.error;
}

// A remote run with no telemetry here yet (queued, starting, or failed before it started): what
// remote.json and the config it was sent with say.
RunRecord remoteOnlyRecord(const QString& dir, const RemoteRunRecord& remote) {
  RunRecord r;
  r.run_dir = canonicalRunDir(dir);
  r.id = remote.run_id.isEmpty() ? QFileInfo(r.run_dir).fileName() : remote.run_id;
  nlohmann::json config = readConfigJson(dir);
  if (config.empty()) config = readJsonObject(dir, QStringLiteral("remote/submitted.json"));
  fillConfig(&r, std::move(config));
  if (r.name.isEmpty()) r.name = remote.name;
  r.started_at = remote.submitted_at.isValid() ? remote.submitted_at : timeFromRunId(r.id);
  r.status = run_status::kIncomplete;
  applyRemoteRecord(&r, remote);
  return r;
}

}  // namespace

bool hasRunFiles(const QString& dir) {
  const QDir d(dir);
  return QFileInfo(d.filePath(kMetricsFile)).isFile() ||
         QFileInfo(d.filePath(QString::fromLatin1(RemoteRunRecord::kFileName))).isFile();
}

QString canonicalRunDir(const QString& dir) {
  const QFileInfo info(dir);
  const QString canonical = info.canonicalFilePath();
  return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

QString configHash(const nlohmann::json& config) {
  if (!config.is_object() || config.empty()) return {};
  const std::string text = config.dump();
  return QString::fromLatin1(
      QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
          .toHex());
}

RunRecord summarizeSeries(const RunSeries& series, const QString& run_dir, bool live) {
  RunRecord r;
  r.run_dir = canonicalRunDir(run_dir);
  const RunInfo info = series.info();
  r.id =
      info.run_id.empty() ? QFileInfo(r.run_dir).fileName() : QString::fromStdString(info.run_id);
  fillConfig(&r, info.config.is_object() && !info.config.empty() ? info.config
                                                                 : readConfigJson(r.run_dir));
  if (info.started) {
    r.host = QString::fromStdString(info.host);
    r.device = QString::fromStdString(info.device);
    r.world_size = info.world_size;
    r.restarts = info.restarts;
  }
  const StepColumns steps = series.steps();
  fillStepMetrics(&r, steps);
  fillEvalMetrics(&r, series.evals());
  const auto end = series.runEnd();
  fillStatus(&r, end, live);
  const double last_t = steps.t.empty() ? std::numeric_limits<double>::quiet_NaN() : steps.t.back();
  fillTimes(&r, end.has_value(), last_t, info.resumes > 0);
  return r;
}

std::optional<RunRecord> indexRunDirectory(const QString& dir, QString* error) {
  auto fail = [&](const QString& message) -> std::optional<RunRecord> {
    if (error) *error = message;
    return std::nullopt;
  };
  if (!QFileInfo(dir).isDir()) return fail(dir + QStringLiteral(": not a directory"));
  std::optional<RemoteRunRecord> remote;
  if (QFileInfo(QDir(dir).filePath(QString::fromLatin1(RemoteRunRecord::kFileName))).isFile()) {
    QString remote_error;
    remote = RemoteRunRecord::read(dir, &remote_error);
    if (!remote) return fail(remote_error);
  }
  const QString path = QDir(dir).filePath(kMetricsFile);
  if (!QFileInfo(path).isFile()) {
    if (remote) return remoteOnlyRecord(dir, *remote);
    return fail(dir + QStringLiteral(": no ") + kMetricsFile);
  }

  RunSeries series;
  TelemetryFeed::Stats stats;
  QString read_error;
  if (!TelemetryFeed::readFile(path, &series, &stats, &read_error)) return fail(read_error);
  if (!series.info().started) {
    if (remote) return remoteOnlyRecord(dir, *remote);
    QString message = path + QStringLiteral(": no run_start event");
    if (stats.malformed > 0) {
      message += QStringLiteral(" (%1 of %2 lines are not telemetry; %3)")
                     .arg(stats.malformed)
                     .arg(stats.lines)
                     .arg(stats.last_error);
    } else if (stats.lines == 0) {
      message += QStringLiteral(" (the file is empty)");
    }
    return fail(message);
  }
  RunRecord record = summarizeSeries(series, dir, /*live=*/false);
  if (remote) applyRemoteRecord(&record, *remote);
  return record;
}

}  // namespace moe::ui

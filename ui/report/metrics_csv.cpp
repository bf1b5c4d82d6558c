// Telemetry -> CSV (metrics_csv.h).
#include "report/metrics_csv.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "protocol/telemetry_reader.h"
#include "run/run_files.h"
#include "widgets/plot_export.h"

namespace moe::ui {

namespace {

namespace protocol = moe::protocol;
constexpr qint64 kChunk = 4 << 20;

// Calls `sink` with each event of the file. False with *error when it cannot be read.
bool forEachEvent(const QString& path, const std::function<void(protocol::TelemetryEvent&&)>& sink,
                  protocol::TelemetryReaderStats* stats, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = path + QStringLiteral(": ") + file.errorString();
    return false;
  }
  protocol::TelemetryReader reader;
  for (;;) {
    const QByteArray chunk = file.read(kChunk);
    if (chunk.isEmpty()) break;
    reader.feed(std::string_view(chunk.constData(), static_cast<size_t>(chunk.size())), sink);
  }
  for (protocol::TelemetryEvent& e : reader.finish()) sink(std::move(e));
  *stats = reader.stats();
  return true;
}

QString text(const std::string& s) {
  return csvField(QString::fromStdString(s));
}
QString num(double v) {
  return csvNumber(v);
}
QString num(int64_t v) {
  return QString::number(v);
}
template <typename T>
QString num(const std::optional<T>& v) {
  return v ? num(*v) : QString();
}

// One CSV file being written.
class CsvFile {
 public:
  bool open(const QString& path, const QStringList& header, QString* error) {
    file_.setFileName(path);
    if (!file_.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
      *error = path + QStringLiteral(": ") + file_.errorString();
      return false;
    }
    out_.setDevice(&file_);
    out_.setEncoding(QStringConverter::Utf8);
    QStringList fields;
    for (const QString& h : header) fields << csvField(h);
    row(fields);
    return true;
  }
  void row(const QStringList& fields) { out_ << fields.join(QLatin1Char(',')) << '\n'; }
  bool close(QString* error) {
    out_.flush();
    file_.close();
    if (file_.error() != QFile::NoError) {
      *error = file_.fileName() + QStringLiteral(": ") + file_.errorString();
      return false;
    }
    return true;
  }

 private:
  QFile file_;
  QTextStream out_;
};

enum FileIndex {
  kRunStart,
  kStep,
  kExpertLoad,
  kPhases,
  kEval,
  kCheckpoint,
  kLog,
  kRunEnd,
  kRanks,
  kAdaptiveR,
  kFileCount
};

const std::array<const char*, kFileCount> kFileNames = {
    "run_start.csv",  "step.csv", "expert_load.csv", "phases.csv", "eval.csv",
    "checkpoint.csv", "log.csv",  "run_end.csv",     "ranks.csv",  "adaptive_r.csv"};

// The event types with a file of their own above; any other (a newer engine's) gets a file named
// after its type, with a column per key of its JSON object.
template <typename E>
constexpr bool kHasOwnFile =
    std::is_same_v<E, protocol::RunStartEvent> || std::is_same_v<E, protocol::StepEvent> ||
    std::is_same_v<E, protocol::ExpertLoadEvent> || std::is_same_v<E, protocol::PhasesEvent> ||
    std::is_same_v<E, protocol::EvalEvent> || std::is_same_v<E, protocol::CheckpointEvent> ||
    std::is_same_v<E, protocol::LogEvent> || std::is_same_v<E, protocol::RunEndEvent> ||
    std::is_same_v<E, protocol::RanksEvent> || std::is_same_v<E, protocol::AdaptiveREvent>;

bool hasOwnFile(const protocol::TelemetryEvent& event) {
  return std::visit([](const auto& e) { return kHasOwnFile<std::decay_t<decltype(e)>>; }, event);
}

// What the headers depend on: the widest layer, every phase name (kPhaseNames order first), and
// the keys of the other event types.
struct Shape {
  size_t experts = 0;
  std::vector<std::string> phases;
  std::map<std::string, std::vector<std::string>> other_keys;  // type -> keys, first seen first
};

void noteShape(const protocol::TelemetryEvent& event, Shape* shape) {
  if (!hasOwnFile(event)) {
    std::vector<std::string>& keys = shape->other_keys[std::string(protocol::event_type(event))];
    // A named object: items() of a temporary would outlive it in the range-for.
    const nlohmann::json json = protocol::to_json(event);
    for (const auto& [key, value] : json.items()) {
      if (key != "v" && key != "type" && std::find(keys.begin(), keys.end(), key) == keys.end())
        keys.push_back(key);
    }
  } else if (const auto* load = std::get_if<protocol::ExpertLoadEvent>(&event)) {
    shape->experts = std::max(shape->experts, load->counts.size());
  } else if (const auto* phases = std::get_if<protocol::PhasesEvent>(&event)) {
    for (const auto& [name, ms] : phases->ms) {
      if (std::find(shape->phases.begin(), shape->phases.end(), name) == shape->phases.end())
        shape->phases.push_back(name);
    }
  }
}

void orderPhases(Shape* shape) {
  auto rank = [](const std::string& name) {
    const auto it = std::find(protocol::kPhaseNames.begin(), protocol::kPhaseNames.end(), name);
    return static_cast<size_t>(it - protocol::kPhaseNames.begin());
  };
  std::stable_sort(shape->phases.begin(), shape->phases.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
}

std::array<QStringList, kFileCount> headers(const Shape& shape) {
  std::array<QStringList, kFileCount> h;
  h[kRunStart] = {"t",
                  "run_id",
                  "world_size",
                  "device",
                  "host",
                  "engine_version",
                  "torch_version",
                  "expert_parameters",
                  "dense_parameters"};
  h[kStep] = {"t",  "step",      "loss",   "task_loss",    "aux_loss", "z_loss",
              "lr", "grad_norm", "tokens", "tokens_per_s", "step_ms",  "tflops"};
  h[kExpertLoad] = {"t",     "step",          "layer",        "capacity",       "dropped_frac",
                    "cv",    "max_over_mean", "load_entropy", "router_entropy", "dead_experts",
                    "l_aux", "z_loss"};
  for (const char* array : {"counts", "kept", "importance"}) {
    for (size_t e = 0; e < shape.experts; ++e)
      h[kExpertLoad] << QStringLiteral("%1_%2").arg(QLatin1String(array)).arg(e);
  }
  h[kPhases] = {"t", "step"};
  for (const std::string& name : shape.phases) h[kPhases] << QString::fromStdString(name);
  h[kEval] = {"t", "step", "loss", "accuracy"};
  h[kCheckpoint] = {"t", "step", "path"};
  h[kLog] = {"t", "level", "msg"};
  h[kRunEnd] = {"t", "status", "steps", "error"};
  h[kRanks] = {"t",          "step",   "rank",         "host",   "step_ms",
               "compute_ms", "a2a_ms", "allreduce_ms", "tokens", "peak_bytes"};
  h[kAdaptiveR] = {"t", "step", "r", "reason", "tried"};
  return h;
}

template <typename T>
void appendArray(QStringList* fields, const std::vector<T>& values, size_t width) {
  for (size_t e = 0; e < width; ++e) *fields << (e < values.size() ? num(values[e]) : QString());
}

// The rows of one event, with the index of the file they go to.
void writeEvent(const protocol::TelemetryEvent& event, const Shape& shape,
                std::array<CsvFile, kFileCount>& files) {
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, protocol::RunStartEvent>) {
          files[kRunStart].row({num(e.t), text(e.run_id), num(e.world_size), text(e.device),
                                text(e.host), text(e.engine_version), text(e.torch_version),
                                num(e.expert_parameters), num(e.dense_parameters)});
        } else if constexpr (std::is_same_v<E, protocol::StepEvent>) {
          files[kStep].row({num(e.t), num(e.step), num(e.loss), num(e.task_loss), num(e.aux_loss),
                            num(e.z_loss), num(e.lr), num(e.grad_norm), num(e.tokens),
                            num(e.tokens_per_s), num(e.step_ms), num(e.tflops)});
        } else if constexpr (std::is_same_v<E, protocol::ExpertLoadEvent>) {
          QStringList f{num(e.t),
                        num(e.step),
                        num(e.layer),
                        num(e.capacity),
                        num(e.dropped_frac),
                        num(e.cv),
                        num(e.max_over_mean),
                        num(e.load_entropy),
                        num(e.router_entropy),
                        num(e.dead_experts),
                        num(e.l_aux),
                        num(e.z_loss)};
          appendArray(&f, e.counts, shape.experts);
          appendArray(&f, e.kept, shape.experts);
          appendArray(&f, e.importance, shape.experts);
          files[kExpertLoad].row(f);
        } else if constexpr (std::is_same_v<E, protocol::PhasesEvent>) {
          QStringList f{num(e.t), num(e.step)};
          for (const std::string& name : shape.phases) {
            const auto it = e.ms.find(name);
            f << (it == e.ms.end() ? QString() : num(it->second));
          }
          files[kPhases].row(f);
        } else if constexpr (std::is_same_v<E, protocol::EvalEvent>) {
          files[kEval].row({num(e.t), num(e.step), num(e.loss), num(e.accuracy)});
        } else if constexpr (std::is_same_v<E, protocol::CheckpointEvent>) {
          files[kCheckpoint].row({num(e.t), num(e.step), text(e.path)});
        } else if constexpr (std::is_same_v<E, protocol::LogEvent>) {
          files[kLog].row({num(e.t), text(e.level), text(e.msg)});
        } else if constexpr (std::is_same_v<E, protocol::RunEndEvent>) {
          files[kRunEnd].row(
              {num(e.t), text(e.status), num(e.steps), e.error ? text(*e.error) : QString()});
        } else if constexpr (std::is_same_v<E, protocol::RanksEvent>) {
          for (const protocol::RankFigures& r : e.ranks) {
            files[kRanks].row({num(e.t), num(e.step), num(r.rank), text(r.host), num(r.step_ms),
                               num(r.compute_ms), num(r.a2a_ms), num(r.allreduce_ms), num(r.tokens),
                               num(r.peak_bytes)});
          }
        } else if constexpr (std::is_same_v<E, protocol::AdaptiveREvent>) {
          nlohmann::json tried = nlohmann::json::object();
          for (const auto& [r, ms] : e.tried) tried[std::to_string(r)] = ms;
          files[kAdaptiveR].row(
              {num(e.t), num(e.step), num(e.r), text(e.reason), text(tried.dump())});
        }
      },
      event);
}

// A JSON value as a cell: numbers as numbers, strings as text, null empty, the rest as JSON.
QString jsonCell(const nlohmann::json& value) {
  if (value.is_null()) return QString();
  if (value.is_number_integer()) return num(value.get<int64_t>());
  if (value.is_number()) return num(value.get<double>());
  if (value.is_string()) return text(value.get<std::string>());
  return text(value.dump());
}

void writeOtherEvent(const protocol::TelemetryEvent& event, const Shape& shape,
                     std::map<std::string, CsvFile>& files) {
  const std::string type(protocol::event_type(event));
  const nlohmann::json json = protocol::to_json(event);
  QStringList fields;
  for (const std::string& key : shape.other_keys.at(type))
    fields << (json.contains(key) ? jsonCell(json[key]) : QString());
  files[type].row(fields);
}

}  // namespace

QStringList metricsCsvFiles() {
  QStringList names;
  for (const char* name : kFileNames) names << QLatin1String(name);
  return names;
}

bool exportMetricsCsv(const QString& run_dir, const QString& out_dir, QString* error) {
  const QString metrics = runFile(run_dir, run_layout::kMetrics);
  if (!QFileInfo(run_dir).isDir()) {
    *error = run_dir + QStringLiteral(": no such directory");
    return false;
  }
  if (!QFileInfo(metrics).isFile()) {
    *error = run_dir + QStringLiteral(": no metrics.jsonl (not a run directory)");
    return false;
  }
  Shape shape;
  protocol::TelemetryReaderStats stats;
  if (!forEachEvent(
          metrics, [&](protocol::TelemetryEvent&& e) { noteShape(e, &shape); }, &stats, error))
    return false;
  if (stats.events == 0) {
    *error = metrics + QStringLiteral(": no telemetry event in %1 line(s)").arg(stats.lines);
    return false;
  }
  orderPhases(&shape);
  if (!QDir().mkpath(out_dir)) {
    *error = out_dir + QStringLiteral(": cannot make the directory");
    return false;
  }
  const auto header = headers(shape);
  std::array<CsvFile, kFileCount> files;
  for (size_t i = 0; i < kFileCount; ++i) {
    if (!files[i].open(QDir(out_dir).filePath(QLatin1String(kFileNames[i])), header[i], error))
      return false;
  }
  std::map<std::string, CsvFile> other_files;
  for (const auto& [type, keys] : shape.other_keys) {
    QStringList header;
    for (const std::string& key : keys) header << QString::fromStdString(key);
    const QString name = QString::fromStdString(type) + QStringLiteral(".csv");
    if (!other_files[type].open(QDir(out_dir).filePath(name), header, error)) return false;
  }
  const auto write = [&](protocol::TelemetryEvent&& e) {
    if (hasOwnFile(e))
      writeEvent(e, shape, files);
    else
      writeOtherEvent(e, shape, other_files);
  };
  if (!forEachEvent(metrics, write, &stats, error)) return false;
  for (CsvFile& file : files) {
    if (!file.close(error)) return false;
  }
  for (auto& [type, file] : other_files) {
    if (!file.close(error)) return false;
  }
  return true;
}

}  // namespace moe::ui

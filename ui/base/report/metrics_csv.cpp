// Telemetry -> CSV (metrics_csv.h).
#include "base/report/metrics_csv.h"

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

#include "base/run/run_files.h"
#include "base/storage/csv_text.h"
#include "protocol/telemetry_event_fields.h"
#include "protocol/telemetry_reader.h"

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

// The file each event type with one of its own goes to.
template <typename E>
constexpr FileIndex fileOf() {
  using namespace protocol;
  if constexpr (std::is_same_v<E, RunStartEvent>) return kRunStart;
  if constexpr (std::is_same_v<E, StepEvent>) return kStep;
  if constexpr (std::is_same_v<E, ExpertLoadEvent>) return kExpertLoad;
  if constexpr (std::is_same_v<E, PhasesEvent>) return kPhases;
  if constexpr (std::is_same_v<E, EvalEvent>) return kEval;
  if constexpr (std::is_same_v<E, CheckpointEvent>) return kCheckpoint;
  if constexpr (std::is_same_v<E, LogEvent>) return kLog;
  if constexpr (std::is_same_v<E, RunEndEvent>) return kRunEnd;
  if constexpr (std::is_same_v<E, RanksEvent>) return kRanks;
  return kAdaptiveR;
}

// A file's columns, from the event's field list (protocol/telemetry_event_fields.h): a column per
// field, per expert for the per-expert arrays, per phase for "ms"; records (ranks) make a row each,
// after the event's own columns; run_start's config is left to the config export.
class CsvHeader {
 public:
  CsvHeader(const Shape& shape, QStringList* out) : shape_(shape), out_(*out) {}

  template <typename T>
  void field(const char* key, const T&) {
    if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                  std::is_same_v<T, std::vector<double>>) {
      for (size_t e = 0; e < shape_.experts; ++e)
        out_ << QStringLiteral("%1_%2").arg(QLatin1String(key)).arg(e);
    } else {
      out_ << QLatin1String(key);
    }
  }
  template <typename T>
  void optional(const char* key, const std::optional<T>&) {
    if constexpr (std::is_same_v<T, std::vector<double>>) {
      field(key, T{});  // a column per expert, as for the arrays always written
    } else {
      out_ << QLatin1String(key);
    }
  }
  void text_or_empty(const char* key, const std::string&) { out_ << QLatin1String(key); }
  void nonzero(const char* key, const int64_t&) { out_ << QLatin1String(key); }
  void object(const char*, const nlohmann::json&) {}
  void number_map(const char*, const std::map<std::string, double>&) {
    for (const std::string& name : shape_.phases) out_ << QString::fromStdString(name);
  }
  // r -> ms: one cell of JSON text, so the file keeps one width whatever r were tried.
  void number_map(const char* key, const std::map<int64_t, double>&) { out_ << QLatin1String(key); }
  template <typename R>
  void records(const char*, const std::vector<R>&) {
    const R record{};
    protocol::visit_event(record, *this);
  }

 private:
  const Shape& shape_;
  QStringList& out_;
};

// An event's rows, in CsvHeader's columns; `t` is every row's first cell.
class CsvRows {
 public:
  CsvRows(const Shape& shape, double t) : shape_(shape) { cells_ << num(t); }

  template <typename T>
  void field(const char*, const T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      cells_ << text(value);
    } else if constexpr (std::is_arithmetic_v<T>) {
      cells_ << num(value);
    } else {
      for (size_t e = 0; e < shape_.experts; ++e)
        cells_ << (e < value.size() ? num(value[e]) : QString());
    }
  }
  void optional(const char*, const std::optional<std::string>& value) {
    cells_ << (value ? text(*value) : QString());
  }
  void optional(const char* key, const std::optional<std::vector<double>>& value) {
    field(key, value ? *value : std::vector<double>{});  // empty cells where it is absent
  }
  template <typename T>
  void optional(const char*, const std::optional<T>& value) {
    cells_ << num(value);
  }
  void text_or_empty(const char*, const std::string& value) { cells_ << text(value); }
  void nonzero(const char*, const int64_t& value) { cells_ << num(value); }
  void object(const char*, const nlohmann::json&) {}
  void number_map(const char*, const std::map<std::string, double>& values) {
    for (const std::string& name : shape_.phases) {
      const auto it = values.find(name);
      cells_ << (it == values.end() ? QString() : num(it->second));
    }
  }
  void number_map(const char*, const std::map<int64_t, double>& values) {
    nlohmann::json tried = nlohmann::json::object();
    for (const auto& [r, ms] : values) tried[std::to_string(r)] = ms;
    cells_ << text(tried.dump());
  }
  template <typename R>
  void records(const char*, const std::vector<R>& values) {
    const QStringList before = cells_;
    for (const R& value : values) {
      cells_ = before;
      protocol::visit_event(value, *this);
      rows_.push_back(cells_);
    }
    has_records_ = true;
  }

  // The rows: one, or one per record.
  QList<QStringList> rows() const { return has_records_ ? rows_ : QList<QStringList>{cells_}; }

 private:
  const Shape& shape_;
  QStringList cells_;
  QList<QStringList> rows_;
  bool has_records_ = false;
};

template <typename E>
void addHeader(const Shape& shape, std::array<QStringList, kFileCount>& h) {
  QStringList& columns = h[fileOf<E>()];
  columns << QStringLiteral("t");
  CsvHeader header(shape, &columns);
  const E event{};
  protocol::visit_event(event, header);
}

std::array<QStringList, kFileCount> headers(const Shape& shape) {
  std::array<QStringList, kFileCount> h;
  using namespace protocol;
  addHeader<RunStartEvent>(shape, h);
  addHeader<StepEvent>(shape, h);
  addHeader<ExpertLoadEvent>(shape, h);
  addHeader<PhasesEvent>(shape, h);
  addHeader<EvalEvent>(shape, h);
  addHeader<CheckpointEvent>(shape, h);
  addHeader<LogEvent>(shape, h);
  addHeader<RunEndEvent>(shape, h);
  addHeader<RanksEvent>(shape, h);
  addHeader<AdaptiveREvent>(shape, h);
  return h;
}

// The rows of one event with a file of its own, into that file.
void writeEvent(const protocol::TelemetryEvent& event, const Shape& shape,
                std::array<CsvFile, kFileCount>& files) {
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (kHasOwnFile<E>) {
          CsvRows rows(shape, e.t);
          protocol::visit_event(e, rows);
          for (const QStringList& row : rows.rows()) files[fileOf<E>()].row(row);
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

#include "base/profiler/bench_result.h"

#include <QJsonDocument>
#include <QStringList>

#include <string_view>

#include "protocol/bench_lines.h"

namespace moe::ui {

namespace {

QString valueText(const QJsonValue& v) {
  if (v.isString()) return v.toString();
  if (v.isBool()) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
  return QString::number(v.toDouble(), 'g', 10);
}

// The form's short names; a key not among them keeps its last part.
QString shortKey(const QString& key) {
  static const QMap<QString, QString> kShort = {
      {QStringLiteral("moe.experts"), QStringLiteral("E")},
      {QStringLiteral("moe.top_k"), QStringLiteral("k")},
      {QStringLiteral("moe.capacity_factor"), QStringLiteral("f")},
      {QStringLiteral("moe.hidden"), QStringLiteral("H")},
      {QStringLiteral("model.dim"), QStringLiteral("M")},
      {QStringLiteral("train.batch_size"), QStringLiteral("N")},
      {QStringLiteral("train.threads"), QStringLiteral("t")},
      {QStringLiteral("train.dtype"), QString()}};
  if (kShort.contains(key)) return kShort.value(key);
  return key.section(QLatin1Char('.'), -1);
}

}  // namespace

BenchResult BenchResult::fromJson(const QJsonObject& json) {
  BenchResult r;
  r.json = json;
  r.index = json.value(QStringLiteral("index")).toInt();
  r.config = json.value(QStringLiteral("config")).toObject();
  r.tokens = json.value(QStringLiteral("tokens")).toInteger();
  r.capacity = json.value(QStringLiteral("capacity")).toInteger();
  auto number = [&](const char* key) { return json.value(QLatin1String(key)).toDouble(); };
  r.train_tokens_per_s = number("train_tokens_per_s");
  r.forward_tokens_per_s = number("forward_tokens_per_s");
  r.train_tflops = number("train_tflops");
  r.efficiency = number("efficiency");
  r.routing_share = number("routing_share");
  r.train_ms = number("train_ms");
  r.ceiling_train_ms = number("ceiling_train_ms");
  r.naive_train_tokens_per_s = number("naive_train_tokens_per_s");
  r.naive_speedup = number("naive_speedup");
  r.seconds = number("seconds");
  const QJsonObject phases = json.value(QStringLiteral("phases_ms")).toObject();
  for (auto it = phases.begin(); it != phases.end(); ++it) r.phases_ms[it.key()] = it->toDouble();
  r.threads = json.value(QStringLiteral("threads")).toString();
  return r;
}

QString configLabel(const QJsonObject& config) {
  if (config.isEmpty()) return QStringLiteral("default");
  QStringList parts;
  for (auto it = config.begin(); it != config.end(); ++it) {
    parts << it.key() + QLatin1Char('=') + valueText(it.value());
  }
  return parts.join(QLatin1Char(' '));
}

QString shortConfigLabel(const QJsonObject& config) {
  if (config.isEmpty()) return QStringLiteral("default");
  QStringList parts;
  for (auto it = config.begin(); it != config.end(); ++it) {
    const QString name = shortKey(it.key());
    parts << (name.isEmpty() ? valueText(it.value()) : name + QLatin1Char('=') + valueText(*it));
  }
  return parts.join(QLatin1Char(' '));
}

// The protocol's reader (protocol/bench_lines.h); the app keeps a config's object as Qt JSON.
BenchLine parseBenchLine(const QByteArray& line) {
  protocol::BenchLine read =
      protocol::parse_bench_line(std::string_view(line.constData(), line.size()));
  BenchLine out;
  out.configs = static_cast<int>(read.configs);
  out.error = QString::fromStdString(read.error);
  switch (read.kind) {
    case protocol::BenchLine::Kind::Start:
      out.kind = BenchLine::Kind::Start;
      break;
    case protocol::BenchLine::Kind::End:
      out.kind = BenchLine::Kind::End;
      break;
    case protocol::BenchLine::Kind::Config: {
      const std::string text =
          read.object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text));
      out.kind = BenchLine::Kind::Config;
      out.result = BenchResult::fromJson(doc.object());
      break;
    }
    case protocol::BenchLine::Kind::Bad:
      break;
  }
  return out;
}

}  // namespace moe::ui

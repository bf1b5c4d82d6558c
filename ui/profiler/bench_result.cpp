#include "profiler/bench_result.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

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

BenchLine parseBenchLine(const QByteArray& line) {
  BenchLine out;
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
  if (error.error != QJsonParseError::NoError || !doc.isObject()) {
    out.error = QStringLiteral("not a JSON object (%1): %2")
                    .arg(error.error != QJsonParseError::NoError ? error.errorString()
                                                                 : QStringLiteral("another value"),
                         QString::fromUtf8(line.left(120)));
    return out;
  }
  const QJsonObject json = doc.object();
  const QString type = json.value(QStringLiteral("type")).toString();
  if (type == QLatin1String("bench_start") || type == QLatin1String("bench_end")) {
    out.kind = type == QLatin1String("bench_start") ? BenchLine::Kind::Start : BenchLine::Kind::End;
    out.configs = json.value(QStringLiteral("configs")).toInt();
    return out;
  }
  if (type == QLatin1String("bench_config")) {
    if (!json.value(QStringLiteral("config")).isObject() ||
        !json.value(QStringLiteral("train_tokens_per_s")).isDouble()) {
      out.error = QStringLiteral("a bench_config line without config or train_tokens_per_s");
      return out;
    }
    out.kind = BenchLine::Kind::Config;
    out.configs = json.value(QStringLiteral("of")).toInt();
    out.result = BenchResult::fromJson(json);
    return out;
  }
  out.error = QStringLiteral("unknown line type \"%1\"").arg(type);
  return out;
}

}  // namespace moe::ui

#include "base/profiler/sweep_spec.h"

#include <QJsonArray>
#include <QSet>

#include <QObject>
#include <algorithm>

#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "protocol/run_config.h"

namespace moe::ui {

namespace {

// A measurement of min_time each: the ceiling under two thread settings, the forward, the rounds.
constexpr int kMeasurementsPerConfig = 4;
constexpr int kMaxProblems = 8;  // a bad value in a big grid would otherwise list every config

QString assignmentText(const QList<const SweepKey*>& keys, const QStringList& values) {
  QStringList parts;
  for (int i = 0; i < keys.size(); ++i) parts << keys[i]->label + QStringLiteral(" = ") + values[i];
  return parts.join(QStringLiteral(", "));
}

// The configs of the sweep, each as one value per key of `keys` (every key of the spec).
QList<QStringList> configValues(const SweepSpec& spec) {
  QList<QStringList> out{{}};
  if (spec.paired) {
    const qint64 n = sweepConfigCount(spec);
    out.clear();
    for (qint64 i = 0; i < n; ++i) {
      QStringList row;
      for (const SweepKey& k : spec.keys) row << (k.values.size() > 1 ? k.values[i] : k.values[0]);
      out << row;
    }
    return out;
  }
  for (const SweepKey& k : spec.keys) {
    QList<QStringList> next;
    for (const QStringList& prefix : out) {
      for (const QString& v : k.values) next << (QStringList(prefix) << v);
    }
    out = next;
  }
  return out;
}

}  // namespace

SweepSpec SweepSpec::defaults() {
  SweepSpec s;
  s.keys = {
      {QStringLiteral("moe.experts"), QObject::tr("Experts"), QStringLiteral("E"), {"8"}},
      {QStringLiteral("moe.top_k"), QObject::tr("Top-k"), QStringLiteral("k"), {"2"}},
      {QStringLiteral("moe.capacity_factor"),
       QObject::tr("Capacity factor"),
       QStringLiteral("f"),
       {"1.0"}},
      {QStringLiteral("moe.hidden"), QObject::tr("Hidden size"), QStringLiteral("H"), {"512"}},
      {QStringLiteral("model.dim"), QObject::tr("Model dim"), QStringLiteral("M"), {"256"}},
      {QStringLiteral("train.batch_size"), QObject::tr("Tokens"), QStringLiteral("N"), {"2048"}},
      {QStringLiteral("train.dtype"), QObject::tr("Dtype"), QString(), {"float32"}},
      {QStringLiteral("train.threads"), QObject::tr("Threads"), QStringLiteral("t"), {"0"}},
  };
  return s;
}

const SweepKey* SweepSpec::find(const QString& key) const {
  for (const SweepKey& k : keys) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

QList<SweepKey> SweepSpec::swept() const {
  QList<SweepKey> out;
  for (const SweepKey& k : keys) {
    if (k.values.size() > 1) out << k;
  }
  return out;
}

QString configsText(qint64 n) {
  return n == 1 ? QObject::tr("1 config") : QObject::tr("%1 configs").arg(n);
}

QStringList splitValues(const QString& text) {
  QStringList out;
  if (text.trimmed().isEmpty()) return out;
  for (const QString& part : text.split(QLatin1Char(','))) out << part.trimmed();
  return out;
}

qint64 sweepConfigCount(const SweepSpec& spec) {
  qint64 n = 1;
  qint64 paired_length = -1;
  for (const SweepKey& k : spec.keys) {
    if (k.values.isEmpty()) return 0;
    if (spec.paired) {
      if (k.values.size() == 1) continue;
      if (paired_length >= 0 && paired_length != k.values.size()) return 0;
      paired_length = k.values.size();
    } else {
      n *= k.values.size();
      if (n > kMaxSweepConfigs * 1000LL) return n;  // far too many already: stop multiplying
    }
  }
  return spec.paired ? std::max<qint64>(paired_length, 1) : n;
}

QStringList sweepProblems(const SweepSpec& spec) {
  QStringList problems;
  if (spec.iters < 1 || spec.iters > 1000) problems << QObject::tr("Iterations: 1 to 1000");
  if (!(spec.min_time >= 0 && spec.min_time <= 600)) {
    problems << QObject::tr("Min time: 0 to 600 seconds");
  }
  QList<const SweepKey*> keys;
  for (const SweepKey& k : spec.keys) keys << &k;
  for (const SweepKey* k : keys) {
    if (k->values.isEmpty()) problems << QObject::tr("%1: give at least one value").arg(k->label);
    if (k->values.contains(QString())) {
      problems << QObject::tr("%1: an empty value between commas").arg(k->label);
    }
    if (QSet<QString>(k->values.begin(), k->values.end()).size() != k->values.size() &&
        !spec.paired) {
      problems << QObject::tr("%1: a value is listed twice").arg(k->label);
    }
  }
  if (!problems.isEmpty()) return problems;
  if (spec.paired) {
    QString first;
    qsizetype length = 0;
    for (const SweepKey* k : keys) {
      if (k->values.size() < 2) continue;
      if (length == 0) {
        first = k->label;
        length = k->values.size();
      } else if (k->values.size() != length) {
        problems << QObject::tr(
                        "Paired: %1 has %2 values but %3 has %4; give every swept key "
                        "the same number (or one value)")
                        .arg(first)
                        .arg(length)
                        .arg(k->label)
                        .arg(k->values.size());
      }
    }
    if (!problems.isEmpty()) return problems;
  }
  const qint64 count = sweepConfigCount(spec);
  if (count > kMaxSweepConfigs) {
    return {QObject::tr("%1 configs: at most %2 per sweep (use Paired, or fewer values)")
                .arg(count)
                .arg(kMaxSweepConfigs)};
  }
  // Each config as the engine resolves it: the defaults, model.seq_len = 1, then the values.
  const nlohmann::json defaults = protocol::to_json(protocol::RunConfig{});
  QSet<QString> seen;
  for (const QStringList& values : configValues(spec)) {
    nlohmann::json json = defaults;
    QString problem;
    try {
      protocol::apply_override(json, "model.seq_len=1");
      for (int i = 0; i < keys.size(); ++i) {
        protocol::apply_override(json, (keys[i]->key + QLatin1Char('=') + values[i]).toStdString());
      }
      const auto found = protocol::check(json);
      if (!found.empty()) problem = QString::fromStdString(protocol::format_problem(found.front()));
    } catch (const protocol::ConfigError& e) {
      problem = QString::fromStdString(e.what());
    }
    if (problem.isEmpty() || seen.contains(problem)) continue;
    seen.insert(problem);
    problems << assignmentText(keys, values) + QStringLiteral(": ") + problem;
    if (problems.size() == kMaxProblems) {
      problems << QObject::tr("(and maybe more)");
      break;
    }
  }
  return problems;
}

QStringList benchArguments(const SweepSpec& spec) {
  QStringList args{QStringLiteral("bench"), QStringLiteral("--jsonl"), QStringLiteral("--set"),
                   QStringLiteral("model.seq_len=1")};
  for (const SweepKey& k : spec.keys) {
    if (k.values.size() == 1) {
      args << QStringLiteral("--set") << k.key + QLatin1Char('=') + k.values.front();
    }
  }
  for (const SweepKey& k : spec.keys) {
    if (k.values.size() > 1) {
      args << QStringLiteral("--sweep")
           << k.key + QLatin1Char('=') + k.values.join(QLatin1Char(','));
    }
  }
  if (spec.paired) args << QStringLiteral("--pair");
  args << QStringLiteral("--iters") << QString::number(spec.iters) << QStringLiteral("--min-time")
       << QString::number(spec.min_time);
  if (!spec.naive) args << QStringLiteral("--no-naive");
  return args;
}

double estimateSweepSeconds(const SweepSpec& spec, double overhead_s) {
  const qint64 n = sweepConfigCount(spec);
  return static_cast<double>(n) * (kMeasurementsPerConfig * spec.min_time + overhead_s);
}

double sweepOverheadSeconds(const SweepSpec& spec, const QList<double>& config_seconds) {
  if (config_seconds.isEmpty()) return -1;
  double total = 0;
  for (double s : config_seconds) total += s;
  return std::max(0.0, total / config_seconds.size() - kMeasurementsPerConfig * spec.min_time);
}

QJsonObject sweepSpecToJson(const SweepSpec& spec) {
  QJsonObject values;
  for (const SweepKey& k : spec.keys) values[k.key] = QJsonArray::fromStringList(k.values);
  return {{QStringLiteral("values"), values},
          {QStringLiteral("paired"), spec.paired},
          {QStringLiteral("iters"), spec.iters},
          {QStringLiteral("min_time"), spec.min_time},
          {QStringLiteral("naive"), spec.naive}};
}

SweepSpec sweepSpecFromJson(const QJsonObject& json) {
  SweepSpec spec = SweepSpec::defaults();
  const QJsonObject values = json.value(QStringLiteral("values")).toObject();
  for (SweepKey& k : spec.keys) {
    if (!values.contains(k.key)) continue;
    k.values.clear();
    for (const QJsonValue& v : values.value(k.key).toArray()) k.values << v.toString();
  }
  spec.paired = json.value(QStringLiteral("paired")).toBool(false);
  spec.iters = json.value(QStringLiteral("iters")).toInt(spec.iters);
  spec.min_time = json.value(QStringLiteral("min_time")).toDouble(spec.min_time);
  spec.naive = json.value(QStringLiteral("naive")).toBool(true);
  return spec;
}

}  // namespace moe::ui

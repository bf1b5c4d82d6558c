#include "base/generate/generate_events.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace moe::ui {

namespace {

using Kind = GenerateLine::Kind;

// A field's value where the line must have it; reading stops at the first missing one.
class Fields {
 public:
  explicit Fields(const QJsonObject& object) : object_(object) {}

  int integer(const char* key) { return static_cast<int>(int64(key)); }
  int64_t int64(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d)) return fail(key, "a whole number"), 0;
    return static_cast<int64_t>(d);
  }
  double number(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isDouble()) return fail(key, "a number"), 0;
    return v.toDouble();
  }
  // Optional numbers (figures the engine may leave out) read as `fallback`.
  double optionalNumber(const char* key, double fallback = 0) const {
    return object_.value(QLatin1String(key)).toDouble(fallback);
  }
  QString string(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isString()) return fail(key, "a string"), QString();
    return v.toString();
  }
  QJsonArray array(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isArray()) return fail(key, "an array"), QJsonArray();
    return v.toArray();
  }
  bool ok() const { return error_.isEmpty(); }
  const QString& error() const { return error_; }
  void fail(const QString& key, const char* what) {
    if (error_.isEmpty()) error_ = QStringLiteral("\"%1\" is not %2").arg(key, QLatin1String(what));
  }

 private:
  QJsonObject object_;
  QString error_;
};

template <typename T>
bool readNumbers(const QJsonArray& array, std::vector<T>* out) {
  out->clear();
  out->reserve(static_cast<size_t>(array.size()));
  for (const QJsonValue& v : array) {
    if (!v.isDouble()) return false;
    out->push_back(static_cast<T>(v.toDouble()));
  }
  return true;
}

void readStart(Fields& f, const QJsonObject& o, GenerateStartEvent* e) {
  e->model = o.value(QStringLiteral("model")).toString();
  e->prompts = f.integer("prompts");
  e->batch_size = static_cast<int>(f.optionalNumber("batch_size", 1));
  e->max_new_tokens = static_cast<int>(f.optionalNumber("max_new_tokens"));
  for (const QJsonValue& v : f.array("moe_layers")) {
    Fields layer(v.toObject());
    GenerateMoeLayer l{layer.integer("layer"), layer.integer("experts"), layer.integer("top_k")};
    if (!layer.ok() || l.experts <= 0 || l.top_k <= 0) return f.fail("moe_layers", "a layer list");
    e->moe_layers.push_back(l);
  }
}

void readPrompt(Fields& f, const QJsonObject& o, PromptEvent* e) {
  e->prompt = f.integer("prompt");
  if (!readNumbers(f.array("tokens"), &e->tokens)) f.fail("tokens", "an array of ids");
  for (const QJsonValue& v : o.value(QStringLiteral("pieces")).toArray()) {
    e->pieces << v.toString();
  }
}

void readToken(Fields& f, TokenEvent* e) {
  e->prompt = f.integer("prompt");
  e->index = f.integer("index");
  e->id = f.int64("id");
  e->piece = f.string("piece");
  for (const QJsonValue& v : f.array("routing")) {
    Fields layer(v.toObject());
    TokenRouting r;
    r.layer = layer.integer("layer");
    const bool lists = readNumbers(layer.array("experts"), &r.experts) &&
                       readNumbers(layer.array("weights"), &r.weights);
    if (!layer.ok() || !lists || r.experts.size() != r.weights.size() || r.experts.empty()) {
      return f.fail("routing", "a list of layers' experts and weights of one length");
    }
    e->routing.push_back(std::move(r));
  }
}

void readStep(Fields& f, const QJsonObject& o, DecodeStepEvent* e) {
  e->step = f.integer("step");
  e->batch = static_cast<int>(f.optionalNumber("batch", 1));
  e->ms = f.number("ms");
  e->tokens_per_s = f.number("tokens_per_s");
  const QJsonObject phases = o.value(QStringLiteral("phases")).toObject();
  for (auto it = phases.begin(); it != phases.end(); ++it) {
    if (it->isDouble()) e->phases_ms[it.key()] = it->toDouble();
  }
}

void readPromptEnd(Fields& f, const QJsonObject& o, PromptEndEvent* e) {
  e->prompt = f.integer("prompt");
  e->finish = o.value(QStringLiteral("finish")).toString();
  e->tokens = static_cast<int>(f.optionalNumber("tokens"));
  e->text = o.value(QStringLiteral("text")).toString();
  e->ttft_ms = f.optionalNumber("ttft_ms");
  e->prefill_ms = f.optionalNumber("prefill_ms");
}

void readEnd(const Fields& f, GenerateEndEvent* e) {
  e->decode_tokens_per_s = f.optionalNumber("decode_tokens_per_s");
  e->prefill_tokens_per_s = f.optionalNumber("prefill_tokens_per_s");
  e->ttft_ms = f.optionalNumber("ttft_ms");
  e->tokens = static_cast<int64_t>(f.optionalNumber("tokens"));
}

GenerateLine bad(const QString& why) {
  GenerateLine line;
  line.kind = Kind::Bad;
  line.error = why;
  return line;
}

}  // namespace

GenerateLine parseGenerateLine(const QByteArray& text) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
  if (error.error != QJsonParseError::NoError) return bad(error.errorString());
  if (!doc.isObject()) return bad(QStringLiteral("not a JSON object"));
  const QJsonObject o = doc.object();
  const QString type = o.value(QStringLiteral("type")).toString();
  if (type.isEmpty()) return bad(QStringLiteral("no \"type\""));

  GenerateLine line;
  // A later version's lines, and types this app does not know, are skipped without complaint.
  if (o.value(QStringLiteral("v")).toInt(1) != 1) {
    line.kind = Kind::Unknown;
    return line;
  }
  Fields f(o);
  const double t = f.optionalNumber("t");
  if (type == QLatin1String("generate_start")) {
    line.kind = Kind::Start;
    readStart(f, o, &line.start);
  } else if (type == QLatin1String("prompt")) {
    line.kind = Kind::Prompt;
    readPrompt(f, o, &line.prompt);
  } else if (type == QLatin1String("token")) {
    line.kind = Kind::Token;
    readToken(f, &line.token);
    line.token.t = t;
  } else if (type == QLatin1String("decode_step")) {
    line.kind = Kind::DecodeStep;
    readStep(f, o, &line.step);
    line.step.t = t;
  } else if (type == QLatin1String("prompt_end")) {
    line.kind = Kind::PromptEnd;
    readPromptEnd(f, o, &line.prompt_end);
  } else if (type == QLatin1String("generate_end")) {
    line.kind = Kind::End;
    readEnd(f, &line.end);
  } else {
    line.kind = Kind::Unknown;
  }
  if (!f.ok()) return bad(type + QStringLiteral(": ") + f.error());
  return line;
}

std::vector<GenerateLine> GenerateLineReader::feed(const QByteArray& bytes) {
  pending_ += bytes;
  std::vector<GenerateLine> lines;
  qsizetype start = 0;
  for (qsizetype nl; (nl = pending_.indexOf('\n', start)) >= 0; start = nl + 1) {
    const QByteArray line = pending_.sliced(start, nl - start).trimmed();
    if (!line.isEmpty()) lines.push_back(parseGenerateLine(line));
  }
  pending_.remove(0, start);
  return lines;
}

std::vector<GenerateLine> GenerateLineReader::finish() {
  const QByteArray rest = pending_.trimmed();
  pending_.clear();
  if (rest.isEmpty()) return {};
  return {parseGenerateLine(rest)};
}

}  // namespace moe::ui

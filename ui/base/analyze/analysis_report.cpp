#include "base/analyze/analysis_report.h"

#include <QDir>
#include <QFile>

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace moe::ui {

namespace {

using nlohmann::json;

// A problem at a place in the document ("layers[1].load").
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string at(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

const json& member(const json& object, const std::string& where, const std::string& key) {
  const auto it = object.find(key);
  if (it == object.end()) throw Bad(at(where, key) + ": missing");
  return *it;
}

int64_t count(const json& value, const std::string& where) {
  if (!value.is_number_integer() || value.get<int64_t>() < 0)
    throw Bad(where + ": expected a count (a whole number >= 0), got " + value.dump());
  return value.get<int64_t>();
}

double number(const json& value, const std::string& where) {
  if (!value.is_number()) throw Bad(where + ": expected a number, got " + value.dump());
  return value.get<double>();
}

const json& array(const json& value, const std::string& where) {
  if (!value.is_array())
    throw Bad(where + ": expected an array, got " + value.dump(-1).substr(0, 40));
  return value;
}

std::vector<int64_t> counts(const json& value, const std::string& where, size_t size) {
  array(value, where);
  if (value.size() != size) {
    throw Bad(where + ": " + std::to_string(value.size()) + " values, expected " +
              std::to_string(size));
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < value.size(); ++i)
    out.push_back(count(value[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

QString text(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                               : QString();
}

std::vector<TopToken> topTokens(const json& list, const std::string& where) {
  std::vector<TopToken> out;
  for (size_t i = 0; i < array(list, where).size(); ++i) {
    const std::string w = where + "[" + std::to_string(i) + "]";
    const json& t = list[i];
    if (!t.is_object()) throw Bad(w + ": expected an object {id, count[, text]}");
    TopToken token;
    token.id = count(member(t, w, "id"), at(w, "id"));
    token.count = count(member(t, w, "count"), at(w, "count"));
    token.text = text(t, "text");
    out.push_back(std::move(token));
  }
  return out;
}

AnalyzedLayer layer(const json& l, const std::string& w) {
  if (!l.is_object()) throw Bad(w + ": expected an object");
  AnalyzedLayer a;
  a.layer = count(member(l, w, "layer"), at(w, "layer"));
  a.experts = count(member(l, w, "experts"), at(w, "experts"));
  if (a.experts < 1) throw Bad(at(w, "experts") + ": must be at least 1");
  const auto E = static_cast<size_t>(a.experts);
  a.top_k = count(member(l, w, "top_k"), at(w, "top_k"));
  a.tokens = count(member(l, w, "tokens"), at(w, "tokens"));
  a.load = counts(member(l, w, "load"), at(w, "load"), E);
  a.cv = number(member(l, w, "cv"), at(w, "cv"));
  a.max_over_mean = number(member(l, w, "max_over_mean"), at(w, "max_over_mean"));
  a.dead_experts = count(member(l, w, "dead_experts"), at(w, "dead_experts"));
  const std::string cw = at(w, "capacity");
  const json& capacity = array(member(l, w, "capacity"), cw);
  for (size_t f = 0; f < capacity.size(); ++f) {
    const std::string fw = cw + "[" + std::to_string(f) + "]";
    if (!capacity[f].is_object()) throw Bad(fw + ": expected an object");
    CapacityDrop d;
    d.factor = number(member(capacity[f], fw, "capacity_factor"), at(fw, "capacity_factor"));
    d.dropped = count(member(capacity[f], fw, "dropped"), at(fw, "dropped"));
    d.dropped_share = number(member(capacity[f], fw, "dropped_share"), at(fw, "dropped_share"));
    a.capacity.push_back(d);
  }
  const std::string sw = at(w, "co_selection");
  const json& rows = array(member(l, w, "co_selection"), sw);
  if (rows.size() != E) {
    throw Bad(sw + ": " + std::to_string(rows.size()) + " rows, expected " + std::to_string(E) +
              " (experts)");
  }
  for (size_t i = 0; i < E; ++i) {
    const auto row = counts(rows[i], sw + "[" + std::to_string(i) + "]", E);
    a.co_selection.insert(a.co_selection.end(), row.begin(), row.end());
  }
  const std::string tw = at(w, "top_tokens");
  const json& top = array(member(l, w, "top_tokens"), tw);
  if (top.size() != E) {
    throw Bad(tw + ": " + std::to_string(top.size()) + " lists, expected " + std::to_string(E) +
              " (experts)");
  }
  for (size_t e = 0; e < E; ++e)
    a.top_tokens.push_back(topTokens(top[e], tw + "[" + std::to_string(e) + "]"));
  a.capture = text(l, "capture");
  return a;
}

}  // namespace

double AnalyzedLayer::loadShare(int64_t expert) const {
  int64_t total = 0;
  for (int64_t n : load) total += n;
  return total > 0 ? static_cast<double>(load[expert]) / static_cast<double>(total) : 0.0;
}

bool AnalyzedLayer::overloaded(int64_t expert) const {
  return experts > 0 && loadShare(expert) * static_cast<double>(experts) > kOverloaded;
}

QString tokenLabel(const TopToken& token) {
  if (token.text.isEmpty()) return QStringLiteral("#%1").arg(token.id);
  QString shown = token.text;
  shown.replace(QLatin1Char(' '), QChar(0x2423))
      .replace(QLatin1Char('\n'), QChar(0x21B5))
      .replace(QLatin1Char('\t'), QChar(0x21E5))
      .replace(QLatin1Char('\r'), QString());
  return shown;
}

QString AnalysisReport::captureFile(size_t index) const {
  if (capture_dir.isEmpty() || index >= layers.size() || layers[index].capture.isEmpty()) return {};
  return QDir(capture_dir).filePath(layers[index].capture);
}

bool parseAnalysisReport(const QByteArray& bytes, const QString& source, AnalysisReport* out,
                         QString* error) {
  const json doc = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
  const auto fail = [&](const QString& why) {
    *error = source + QStringLiteral(": ") + why;
    return false;
  };
  if (doc.is_discarded())
    return fail(QStringLiteral("not JSON (moe-train analyze --out writes it)"));
  if (!doc.is_object()) return fail(QStringLiteral("expected a JSON object with \"layers\""));
  try {
    AnalysisReport r;
    r.path = source;
    r.tokens = count(member(doc, "", "tokens"), "tokens");
    r.model = text(doc, "model");
    r.data = text(doc, "data");
    if (doc.contains("batch_size")) r.batch_size = count(doc["batch_size"], "batch_size");
    if (doc.contains("seq_len")) r.seq_len = count(doc["seq_len"], "seq_len");
    r.capture_dir = text(doc, "capture_dir");
    const json& layers = array(member(doc, "", "layers"), "layers");
    if (layers.empty()) throw Bad("layers: empty, the model has no MoE layer");
    for (size_t i = 0; i < layers.size(); ++i)
      r.layers.push_back(layer(layers[i], "layers[" + std::to_string(i) + "]"));
    *out = std::move(r);
    return true;
  } catch (const Bad& e) {
    return fail(QString::fromStdString(e.what()));
  }
}

bool readAnalysisReport(const QString& path, AnalysisReport* out, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = path + QStringLiteral(": ") + file.errorString();
    return false;
  }
  return parseAnalysisReport(file.readAll(), path, out, error);
}

QString runAnalysisPath(const QString& run_dir) {
  return QDir(run_dir).filePath(QStringLiteral("analysis/analysis.json"));
}

}  // namespace moe::ui

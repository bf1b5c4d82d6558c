#include "whatif/replay_answer.h"

#include <limits>
#include <numeric>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace moe::ui {

namespace {

using Json = nlohmann::json;

// The fields an answer must have, checked one by one so a malformed answer names its field.
bool readInt(const Json& j, const char* key, int64_t* out, QString* error) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) {
    *error = QStringLiteral("answer without an integer '%1'").arg(key);
    return false;
  }
  *out = it->get<int64_t>();
  return true;
}

bool readDouble(const Json& j, const char* key, double* out, QString* error) {
  auto it = j.find(key);
  if (it == j.end() || !(it->is_number() || it->is_null())) {
    *error = QStringLiteral("answer without a number '%1'").arg(key);
    return false;
  }
  // JSON has no NaN: a writer puts null where a metric is undefined (no tokens).
  *out = it->is_null() ? std::numeric_limits<double>::quiet_NaN() : it->get<double>();
  return true;
}

template <class T>
bool readList(const Json& j, const char* key, std::vector<T>* out, QString* error) {
  auto it = j.find(key);
  bool ok = it != j.end() && it->is_array();
  if (ok) {
    for (const Json& v : *it) {
      if constexpr (std::is_integral_v<T>) {
        ok = ok && v.is_number_integer();
      } else {
        ok = ok && v.is_number();
      }
      if (ok) out->push_back(v.get<T>());
    }
  }
  if (!ok) *error = QStringLiteral("answer without a list of numbers '%1'").arg(key);
  return ok;
}

bool readAnswer(const Json& j, ReplayAnswer* a, QString* error) {
  return readInt(j, "capacity", &a->capacity, error) &&
         readList(j, "expert_counts", &a->counts, error) &&
         readList(j, "expert_kept", &a->kept, error) && readDouble(j, "l_aux", &a->l_aux, error) &&
         readDouble(j, "dropped_frac", &a->dropped_frac, error) &&
         readDouble(j, "cv", &a->cv, error) &&
         readDouble(j, "max_over_mean", &a->max_over_mean, error) &&
         readDouble(j, "load_entropy", &a->load_entropy, error) &&
         readDouble(j, "router_entropy", &a->router_entropy, error) &&
         readInt(j, "dead_experts", &a->dead_experts, error) &&
         readList(j, "importance", &a->importance, error) &&
         readInt(j, "tokens", &a->tokens, error) && readDouble(j, "ms", &a->ms, error);
}

}  // namespace

int64_t ReplayAnswer::dropped() const {
  return std::accumulate(counts.begin(), counts.end(), int64_t{0}) -
         std::accumulate(kept.begin(), kept.end(), int64_t{0});
}

ReplayLine parseReplayLine(std::string_view text) {
  ReplayLine line;
  const Json j = Json::parse(text, nullptr, false);
  if (!j.is_object()) {
    line.error = QStringLiteral("not a JSON object: %1")
                     .arg(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    return line;
  }
  if (auto ready = j.find("ready"); ready != j.end()) {
    QString error;
    if (ready->is_boolean() && ready->get<bool>() && readInt(j, "experts", &line.experts, &error) &&
        readInt(j, "tokens", &line.tokens, &error) && readInt(j, "dim", &line.dim, &error)) {
      line.kind = ReplayLine::Kind::Ready;
    } else {
      line.error = QStringLiteral("a ready line without experts, tokens and dim");
    }
    return line;
  }
  auto id = j.find("id");
  if (id == j.end() || !(id->is_number_integer() || id->is_null())) {
    line.error = QStringLiteral("a line without an id");
    return line;
  }
  if (id->is_number_integer()) line.id = id->get<int64_t>();
  if (auto error = j.find("error"); error != j.end()) {
    line.kind = ReplayLine::Kind::Error;
    line.error =
        QString::fromStdString(error->is_string() ? error->get<std::string>() : error->dump());
    return line;
  }
  if (!line.id) {
    line.error = QStringLiteral("an answer without an id");
    return line;
  }
  if (readAnswer(j, &line.answer, &line.error)) line.kind = ReplayLine::Kind::Answer;
  return line;
}

}  // namespace moe::ui

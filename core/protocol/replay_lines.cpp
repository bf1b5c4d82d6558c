#include "protocol/replay_lines.h"

#include <limits>
#include <numeric>
#include <type_traits>

#include "line_text.h"
#include "protocol/json_text.h"

namespace moe::protocol {

namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;
using detail::line_text;

// The fields an answer must have, checked one by one so a malformed answer names its field.
bool read_int(const json& j, const char* key, int64_t* out, std::string* error) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) {
    *error = std::string("answer without an integer '") + key + "'";
    return false;
  }
  *out = it->get<int64_t>();
  return true;
}

bool read_double(const json& j, const char* key, double* out, std::string* error) {
  const auto it = j.find(key);
  if (it == j.end() || !(it->is_number() || it->is_null())) {
    *error = std::string("answer without a number '") + key + "'";
    return false;
  }
  // JSON has no NaN: the writer puts null where a metric is undefined (no tokens).
  *out = it->is_null() ? std::numeric_limits<double>::quiet_NaN() : it->get<double>();
  return true;
}

template <class T>
bool read_list(const json& j, const char* key, std::vector<T>* out, std::string* error) {
  const auto it = j.find(key);
  bool ok = it != j.end() && it->is_array();
  if (ok) {
    for (const json& v : *it) {
      if constexpr (std::is_integral_v<T>) {
        ok = ok && v.is_number_integer();
      } else {
        ok = ok && v.is_number();
      }
      if (ok) out->push_back(v.get<T>());
    }
  }
  if (!ok) *error = std::string("answer without a list of numbers '") + key + "'";
  return ok;
}

bool read_answer(const json& j, ReplayAnswer* a, std::string* error) {
  return read_int(j, "capacity", &a->capacity, error) &&
         read_list(j, "expert_counts", &a->counts, error) &&
         read_list(j, "expert_kept", &a->kept, error) &&
         read_double(j, "l_aux", &a->l_aux, error) &&
         read_double(j, "dropped_frac", &a->dropped_frac, error) &&
         read_double(j, "cv", &a->cv, error) &&
         read_double(j, "max_over_mean", &a->max_over_mean, error) &&
         read_double(j, "load_entropy", &a->load_entropy, error) &&
         read_double(j, "router_entropy", &a->router_entropy, error) &&
         read_int(j, "dead_experts", &a->dead_experts, error) &&
         read_list(j, "importance", &a->importance, error) &&
         read_int(j, "tokens", &a->tokens, error) && read_double(j, "ms", &a->ms, error);
}

}  // namespace

std::string replay_request_line(const ReplayRequest& request) {
  ordered j;
  j["id"] = request.id;
  j["moe"] = request.moe;
  if (request.seed) j["seed"] = *request.seed;
  return line_text(j);
}

ReplayRequestRead parse_replay_request(std::string_view line, int64_t line_number) {
  ReplayRequestRead read;
  const std::string where = "line " + std::to_string(line_number) + ": ";
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error& e) {
    read.error = where + "not valid JSON (at byte " + std::to_string(e.byte) + ")";
    return read;
  } catch (const json::exception&) {
    // A number no double holds (1e999) is out_of_range, not a parse error.
    read.error = where + "not valid JSON (a number out of range)";
    return read;
  }
  if (!j.is_object()) {
    read.error = where + "expected a JSON object, got " + detail::describe_json(j);
    return read;
  }
  ReplayRequest r;
  if (const auto id = j.find("id"); id != j.end()) {
    if (id->is_structured()) {
      read.error =
          where + "\"id\": expected a number or a string, got " + detail::describe_json(*id);
      return read;
    }
    r.id = *id;
  }
  read.id = r.id;
  for (const auto& item : j.items()) {
    if (item.key() != "id" && item.key() != "moe" && item.key() != "seed") {
      read.error = where + "unknown key " + detail::quote(item.key()) + " (expected id, moe, seed)";
      return read;
    }
  }
  if (const auto moe = j.find("moe"); moe != j.end()) {
    if (!moe->is_object()) {
      read.error = "/moe: expected an object, got " + detail::describe_json(*moe);
      return read;
    }
    r.moe = *moe;
  }
  if (const auto seed = j.find("seed"); seed != j.end()) {
    r.seed = detail::json_to_int64(*seed, nullptr);
    if (!r.seed) {
      read.error = "/seed: expected an integer, got " + detail::describe_json(*seed);
      return read;
    }
  }
  read.request = std::move(r);
  return read;
}

int64_t ReplayAnswer::dropped() const {
  return std::accumulate(counts.begin(), counts.end(), int64_t{0}) -
         std::accumulate(kept.begin(), kept.end(), int64_t{0});
}

std::string replay_ready_line(int64_t experts, int64_t tokens, int64_t dim) {
  ordered j;
  j["ready"] = true;
  j["experts"] = experts;
  j["tokens"] = tokens;
  j["dim"] = dim;
  return line_text(j);
}

std::string replay_answer_line(const json& id, const ReplayAnswer& a) {
  ordered j;
  j["id"] = id;
  j["capacity"] = a.capacity;
  j["expert_counts"] = a.counts;
  j["expert_kept"] = a.kept;
  j["l_aux"] = a.l_aux;
  j["dropped_frac"] = a.dropped_frac;
  j["cv"] = a.cv;
  j["max_over_mean"] = a.max_over_mean;
  j["load_entropy"] = a.load_entropy;
  j["router_entropy"] = a.router_entropy;
  j["dead_experts"] = a.dead_experts;
  j["importance"] = a.importance;
  j["tokens"] = a.tokens;
  j["ms"] = a.ms;
  return line_text(j);
}

std::string replay_error_line(const json& id, const std::string& message) {
  ordered j;
  j["id"] = id;
  j["error"] = message;
  return line_text(j);
}

ReplayLine parse_replay_line(std::string_view text) {
  ReplayLine line;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) {
    line.error = "not a JSON object: " + std::string(text.substr(0, 200));
    return line;
  }
  if (const auto ready = j.find("ready"); ready != j.end()) {
    std::string error;
    if (ready->is_boolean() && ready->get<bool>() &&
        read_int(j, "experts", &line.experts, &error) &&
        read_int(j, "tokens", &line.tokens, &error) && read_int(j, "dim", &line.dim, &error)) {
      line.kind = ReplayLine::Kind::Ready;
    } else {
      line.error = "a ready line without experts, tokens and dim";
    }
    return line;
  }
  const auto id = j.find("id");
  if (id == j.end() || !(id->is_number_integer() || id->is_null())) {
    line.error = "a line without an id";
    return line;
  }
  if (id->is_number_integer()) line.id = id->get<int64_t>();
  if (const auto error = j.find("error"); error != j.end()) {
    line.kind = ReplayLine::Kind::Error;
    line.error = error->is_string() ? error->get<std::string>() : error->dump();
    return line;
  }
  if (!line.id) {
    line.error = "an answer without an id";
    return line;
  }
  if (read_answer(j, &line.answer, &line.error)) line.kind = ReplayLine::Kind::Answer;
  return line;
}

}  // namespace moe::protocol

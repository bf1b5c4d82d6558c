#include "protocol/run_config.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "protocol/config_fields.h"
#include "protocol/json_location.h"
#include "protocol/json_text.h"

namespace moe::protocol {
namespace {

namespace fs = std::filesystem;
using detail::describe_json;

// How an int_or_auto key (config_fields.h) writes its automatic value in JSON.
constexpr const char* kAutoText = "auto";

// A config is a few KB; anything this large is the wrong file, not worth reading into memory.
constexpr std::uintmax_t kMaxConfigFileBytes = 16u << 20;

// Writes every field into a JSON object (json or ordered_json).
template <class Json>
class WriteVisitor {
 public:
  explicit WriteVisitor(Json& root) : stack_{&root} {}

  template <class T>
  void field(const char* key, const T& value) {
    (*stack_.back())[key] = value;
  }

  template <class E>
  void choice(const char* key, const E& value) {
    (*stack_.back())[key] = enum_name(value);
  }

  void int_or_auto(const char* key, const int64_t& value, int64_t auto_value) {
    if (value == auto_value) {
      (*stack_.back())[key] = kAutoText;
    } else {
      field(key, value);
    }
  }

  template <class F>
  void section(const char* key, F&& body) {
    Json& child = (*stack_.back())[key];
    child = Json::object();
    stack_.push_back(&child);
    body();
    stack_.pop_back();
  }

 private:
  std::vector<Json*> stack_;
};

// Edit distance, used to suggest the key a typo probably meant. Keys are short.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Reads fields out of a JSON document, collecting problems instead of stopping at the first.
class ParseVisitor {
 public:
  ParseVisitor(const nlohmann::json& root, std::vector<ConfigProblem>& problems)
      : problems_(problems) {
    const nlohmann::json* obj = nullptr;
    if (root.is_object()) {
      obj = &root;
    } else {
      problems_.push_back({"", "expected a JSON object, got " + describe_json(root)});
    }
    stack_.push_back({obj, "", {}});
  }

  void finish() { report_unknown_keys(stack_.back()); }

  template <class T>
  void field(const char* key, T& value) {
    if (const nlohmann::json* j = find_known(key)) read(*j, pointer_of(key), value);
  }

  // A string naming one of E's values; any other string is a problem that lists them.
  template <class E>
  void choice(const char* key, E& value) {
    const nlohmann::json* j = find_known(key);
    if (!j) return;
    std::string name;
    if (!j->is_string()) {
      read(*j, pointer_of(key), name);  // the "expected a string" problem
      return;
    }
    name = j->get<std::string>();
    if (std::optional<E> v = enum_from_name<E>(name)) {
      value = *v;
      return;
    }
    std::string list;
    for (std::string_view allowed : ConfigEnum<E>::names) {
      if (!list.empty()) list += ", ";
      list += '"' + std::string(allowed) + '"';
    }
    problems_.push_back(
        {pointer_of(key), "must be one of " + list + ", got " + detail::quote(name)});
  }

  void int_or_auto(const char* key, int64_t& value, int64_t auto_value) {
    const nlohmann::json* it = find_known(key);
    if (!it) return;
    if (it->is_string() && it->get<std::string>() == kAutoText) {
      value = auto_value;
      return;
    }
    std::optional<int64_t> v = detail::json_to_int64(*it, nullptr);
    if (v && *v >= 0) {
      value = *v;
      return;
    }
    const std::string got =
        it->is_string() ? detail::quote(it->get<std::string>()) : describe_json(*it);
    problems_.push_back({pointer_of(key), "expected an integer >= 0 or \"auto\", got " + got});
  }

  template <class F>
  void section(const char* key, F&& body) {
    Frame& parent = stack_.back();
    parent.known.emplace_back(key);
    std::string pointer = parent.pointer + "/" + key;
    const nlohmann::json* child = nullptr;
    if (parent.object) {
      auto it = parent.object->find(key);
      if (it != parent.object->end()) {
        if (it->is_object()) {
          child = &*it;
        } else {
          problems_.push_back({pointer, "expected an object, got " + describe_json(*it)});
        }
      }
    }
    stack_.push_back({child, std::move(pointer), {}});  // invalidates `parent`
    body();
    report_unknown_keys(stack_.back());
    stack_.pop_back();
  }

 private:
  struct Frame {
    const nlohmann::json* object;  // null: missing or not an object, so all defaults
    std::string pointer;
    std::vector<std::string> known;
  };

  // The key's value in the current object (recording the key as known); null when the key or the
  // object is missing, so the default stays.
  const nlohmann::json* find_known(const char* key) {
    Frame& frame = stack_.back();
    frame.known.emplace_back(key);
    if (!frame.object) return nullptr;
    auto it = frame.object->find(key);
    return it == frame.object->end() ? nullptr : &*it;
  }

  std::string pointer_of(const char* key) const { return stack_.back().pointer + "/" + key; }

  void read(const nlohmann::json& j, const std::string& pointer, int64_t& out) {
    std::string why;
    if (std::optional<int64_t> v = detail::json_to_int64(j, &why)) {
      out = *v;
      return;
    }
    std::string message = "expected an integer, got " + describe_json(j);
    if (j.is_number() && why == "out of range") message += " (out of range)";
    problems_.push_back({pointer, std::move(message)});
  }

  void read(const nlohmann::json& j, const std::string& pointer, double& out) {
    if (j.is_number()) {
      out = j.get<double>();
    } else {
      problems_.push_back({pointer, "expected a number, got " + describe_json(j)});
    }
  }

  void read(const nlohmann::json& j, const std::string& pointer, bool& out) {
    if (j.is_boolean()) {
      out = j.get<bool>();
    } else {
      problems_.push_back({pointer, "expected true or false, got " + describe_json(j)});
    }
  }

  void read(const nlohmann::json& j, const std::string& pointer, std::string& out) {
    if (j.is_string()) {
      out = j.get<std::string>();
    } else {
      problems_.push_back({pointer, "expected a string, got " + describe_json(j)});
    }
  }

  void report_unknown_keys(const Frame& frame) {
    if (!frame.object) return;
    for (const auto& item : frame.object->items()) {
      const std::string& key = item.key();
      if (std::find(frame.known.begin(), frame.known.end(), key) != frame.known.end()) continue;
      std::string message = "unknown key";
      const std::string* best = nullptr;
      size_t best_distance = 3;  // suggest only near misses: at most 2 edits
      for (const std::string& known : frame.known) {
        size_t d = edit_distance(key, known);
        if (d < best_distance && d < std::max<size_t>(known.size(), 2)) {
          best = &known;
          best_distance = d;
        }
      }
      if (best) message += " (did you mean " + detail::quote(*best) + "?)";
      problems_.push_back({frame.pointer + "/" + escape_pointer_token(key), std::move(message)});
    }
  }

  std::vector<ConfigProblem>& problems_;
  std::vector<Frame> stack_;
};

// "line L, column C" of the 1-based byte position nlohmann reports for a parse error.
std::string line_and_column(const std::string& text, std::size_t byte) {
  std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

}  // namespace

nlohmann::json to_json(const RunConfig& config) {
  nlohmann::json out = nlohmann::json::object();
  WriteVisitor<nlohmann::json> writer(out);
  detail::visit_config(config, writer);
  return out;
}

nlohmann::ordered_json to_ordered_json(const RunConfig& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  WriteVisitor<nlohmann::ordered_json> writer(out);
  detail::visit_config(config, writer);
  return out;
}

RunConfig parse_config(const nlohmann::json& json, std::vector<ConfigProblem>* problems) {
  std::vector<ConfigProblem> local;
  std::vector<ConfigProblem>& out = problems ? *problems : local;
  RunConfig config;
  // A different schema version means different keys: one clear problem beats a page of
  // "unknown key" noise.
  if (json.is_object()) {
    auto it = json.find("schema");
    if (it != json.end()) {
      std::optional<int64_t> schema = detail::json_to_int64(*it, nullptr);
      if (schema && *schema != kConfigSchema) {
        out.push_back({"/schema", "unsupported schema version " + std::to_string(*schema) +
                                      " (this build reads " + std::to_string(kConfigSchema) + ")"});
        config.schema = *schema;
        return config;
      }
    }
  }
  ParseVisitor reader(json, out);
  detail::visit_config(config, reader);
  reader.finish();
  return config;
}

RunConfig config_from_json(const nlohmann::json& json) {
  std::vector<ConfigProblem> problems;
  RunConfig config = parse_config(json, &problems);
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return config;
}

nlohmann::json read_config_json_file(const std::string& path) {
  auto fail = [&](std::string message) -> ConfigError {
    return ConfigError({{"", std::move(message)}}, path);
  };
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw fail("file not found");
  if (fs::is_directory(status)) throw fail("is a directory, not a config file");
  std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxConfigFileBytes) {
    throw fail("file too large for a config (" + std::to_string(size) + " bytes)");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw fail(std::string("cannot open for reading: ") +
               (errno ? std::strerror(errno) : "unknown error"));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw fail("read error");
  std::string text = buffer.str();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line L, column C: <why>";
    // keep <why> and compute the position ourselves from e.byte.
    std::string why = e.what();
    std::size_t colon = why.find(": ");
    if (colon != std::string::npos) why = why.substr(colon + 2);
    throw fail(line_and_column(text, e.byte) + ": invalid JSON: " + why);
  } catch (const nlohmann::json::out_of_range&) {
    // A number nlohmann cannot hold (1e400 overflows a double): name its key, like any other
    // value this config cannot use.
    const detail::ParseStop stop = detail::where_parsing_stops(text);
    const std::string number =
        stop.token.size() > 40 ? stop.token.substr(0, 40) + "..." : stop.token;
    throw ConfigError({{stop.pointer, "number " + number + " is out of range for a double (" +
                                          line_and_column(text, stop.byte) + ")"}},
                      path);
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("cannot be read as JSON: ") + e.what());
  }
}

RunConfig load_config_file(const std::string& path) {
  nlohmann::json json = read_config_json_file(path);
  std::vector<ConfigProblem> problems;
  RunConfig config = parse_config(json, &problems);
  if (!problems.empty()) throw ConfigError(std::move(problems), path);
  return config;
}

void save_config_file(const std::string& path, const RunConfig& config) {
  // Same directory as the target, so the rename stays on one file system (and is atomic).
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write " + temp);
    // replace: a name or path with invalid UTF-8 must not abort the save half-way.
    out << to_ordered_json(config).dump(2, ' ', false,
                                        nlohmann::ordered_json::error_handler_t::replace)
        << '\n';
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw std::runtime_error(path + ": write error");
    }
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw std::runtime_error(path + ": cannot replace file: " + ec.message());
  }
}

}  // namespace moe::protocol

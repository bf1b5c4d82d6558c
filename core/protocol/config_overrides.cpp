#include "protocol/config_overrides.h"

#include <algorithm>
#include <utility>

#include "protocol/config_fields.h"
#include "protocol/json_text.h"
#include "protocol/run_config.h"

namespace moe::protocol {
namespace {

// The dotted keys that also take "auto" (config_fields.h, int_or_auto).
class AutoKeys {
 public:
  template <class T>
  void field(const char*, const T&) {}

  template <class E>
  void choice(const char*, const E&) {}

  void int_or_auto(const char* key, const int64_t&, int64_t) { keys.push_back(prefix_ + key); }

  template <class F>
  void section(const char* key, F&& body) {
    const std::string outer = prefix_;
    prefix_ += std::string(key) + ".";
    body();
    prefix_ = outer;
  }

  std::vector<std::string> keys;

 private:
  std::string prefix_;
};

bool takes_auto(const std::string& key) {
  static const std::vector<std::string> keys = [] {
    AutoKeys visitor;
    const RunConfig defaults;
    detail::visit_config(defaults, visitor);
    return visitor.keys;
  }();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::string dotted_to_pointer(const std::vector<std::string>& parts) {
  std::string pointer;
  for (const std::string& p : parts) pointer += "/" + escape_pointer_token(p);
  return pointer;
}

std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

// The value text converted to the type of `def` (the key's default), or an error message.
nlohmann::json convert(const nlohmann::json& def, const std::string& text, std::string* error) {
  if (def.is_string()) return text;
  if (def.is_boolean()) {
    std::string t = trim(text);
    if (t == "true") return true;
    if (t == "false") return false;
    *error = "expected true or false, got " + detail::quote(text);
    return nullptr;
  }
  // Numbers: JSON's grammar, read by nlohmann (locale-independent, unlike strtod).
  nlohmann::json number;
  std::string why;
  try {
    number = nlohmann::json::parse(text);
  } catch (const nlohmann::json::out_of_range&) {
    why = "out of range";  // a number beyond a double (1e999)
  } catch (const nlohmann::json::exception&) {
  }
  if (def.is_number_integer()) {
    std::optional<int64_t> v =
        number.is_number() ? detail::json_to_int64(number, &why) : std::nullopt;
    if (v) return *v;
    *error = "expected an integer, got " + detail::quote(text);
    if (why == "out of range") *error += " (out of range)";
    return nullptr;
  }
  if (number.is_number()) return number.get<double>();
  *error = "expected a number, got " + detail::quote(text);
  if (why == "out of range") *error += " (out of range)";
  return nullptr;
}

// An int_or_auto key: "auto", or an integer >= 0 (the message parse_config gives too).
nlohmann::json convert_int_or_auto(const std::string& text, std::string* error) {
  if (trim(text) == "auto") return "auto";
  nlohmann::json number = convert(nlohmann::json(int64_t{0}), text, error);
  if (error->empty() && number.get<int64_t>() >= 0) return number;
  *error = "expected an integer >= 0 or \"auto\", got " + detail::quote(text);
  return nullptr;
}

}  // namespace

OverrideError::OverrideError(std::string key, std::string message)
    : ConfigError({{dotted_to_pointer(split_key(key)), message}}, "", key + ": " + message),
      key_(std::move(key)) {}

void apply_override(nlohmann::json& config_json, const std::string& assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    throw OverrideError(trim(assignment), "expected key.path=value");
  }
  const std::string key = trim(assignment.substr(0, eq));
  const std::string text = assignment.substr(eq + 1);

  static const nlohmann::json defaults = to_json(RunConfig{});
  const std::vector<std::string> parts = split_key(key);
  const nlohmann::json* def = &defaults;
  for (const std::string& part : parts) {
    auto it = def->is_object() ? def->find(part) : def->end();
    if (!def->is_object() || it == def->end()) throw OverrideError(key, "unknown key");
    def = &*it;
  }
  if (def->is_object()) throw OverrideError(key, "is a section, not a value; set one of its keys");

  std::string error;
  nlohmann::json value =
      takes_auto(key) ? convert_int_or_auto(text, &error) : convert(*def, text, &error);
  if (!error.empty()) throw OverrideError(key, error);

  // Check the path first so a failure leaves config_json untouched.
  if (config_json.is_null()) config_json = nlohmann::json::object();
  if (!config_json.is_object()) throw OverrideError(key, "the config is not a JSON object");
  nlohmann::json* node = &config_json;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    auto it = node->find(parts[i]);
    if (it == node->end()) break;  // created below
    if (!it->is_object()) {
      throw OverrideError(
          key, "cannot set: " + detail::quote(parts[i]) + " in the config is not an object");
    }
    node = &*it;
  }
  node = &config_json;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    nlohmann::json& child = (*node)[parts[i]];
    if (child.is_null()) child = nlohmann::json::object();
    node = &child;
  }
  (*node)[parts.back()] = std::move(value);
}

void apply_overrides(nlohmann::json& config_json, const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) apply_override(config_json, a);
}

}  // namespace moe::protocol

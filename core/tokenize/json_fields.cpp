// Field readers with JSON paths in their errors (json_fields.h).
#include "tokenize/json_fields.h"

#include "tokenize/tokenizer_error.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {

void refuse(const std::string& path, const std::string& what) {
  throw TokenizerError(path + ": " + what);
}

void refuse_component(const std::string& path, const std::string& type,
                      const std::string& supported) {
  refuse(path + ".type", "\"" + type + "\" is not supported (supported: " + supported + ")");
}

const Json& required_field(const Json& obj, const std::string& key, const std::string& path) {
  if (!obj.is_object()) refuse(path, "expected an object");
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) refuse(path + "." + key, "missing");
  return *it;
}

std::string required_string(const Json& obj, const std::string& key, const std::string& path) {
  const Json& value = required_field(obj, key, path);
  if (!value.is_string()) refuse(path + "." + key, "expected a string");
  return value.get<std::string>();
}

std::string string_field(const Json& obj, const std::string& key, const std::string& path,
                         const std::string& fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_string()) refuse(path + "." + key, "expected a string");
  return it->get<std::string>();
}

bool bool_field(const Json& obj, const std::string& key, const std::string& path, bool fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) refuse(path + "." + key, "expected true or false");
  return it->get<bool>();
}

long long integer_field(const Json& obj, const std::string& key, const std::string& path,
                        long long fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number_integer()) refuse(path + "." + key, "expected an integer");
  return it->get<long long>();
}

std::string component_type(const Json& component, const std::string& path) {
  return required_string(component, "type", path);
}

char32_t char_field(const Json& obj, const std::string& key, const std::string& path,
                    char32_t fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_string()) refuse(path + "." + key, "expected a one-character string");
  const std::string text = it->get<std::string>();
  std::size_t pos = 0;
  if (text.empty() || !is_valid_utf8(text)) refuse(path + "." + key, "expected one character");
  const char32_t cp = next_code_point(text, pos);
  if (pos != text.size()) refuse(path + "." + key, "expected one character, not \"" + text + "\"");
  return cp;
}

}  // namespace moe::tokenize

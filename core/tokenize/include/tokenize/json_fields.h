#pragma once
// Reading tokenizer.json's components with errors that name the JSON path, e.g.
// "model.merges[12]: expected \"a b\" or [\"a\", \"b\"]".
#include <nlohmann/json.hpp>

#include <string>

namespace moe::tokenize {

using Json = nlohmann::json;

// `obj[key]`, or TokenizerError "<path>.<key>: missing" / "<path>: not an object".
const Json& required_field(const Json& obj, const std::string& key, const std::string& path);
// A string field; `fallback` when absent or null.
std::string string_field(const Json& obj, const std::string& key, const std::string& path,
                         const std::string& fallback);
std::string required_string(const Json& obj, const std::string& key, const std::string& path);
bool bool_field(const Json& obj, const std::string& key, const std::string& path, bool fallback);
long long integer_field(const Json& obj, const std::string& key, const std::string& path,
                        long long fallback);

// The component's "type", e.g. "Sequence".
std::string component_type(const Json& component, const std::string& path);

// TokenizerError: "<path>.type: \"<type>\" is not supported (supported: <list>)".
[[noreturn]] void refuse_component(const std::string& path, const std::string& type,
                                   const std::string& supported);
// TokenizerError "<path>: <what>".
[[noreturn]] void refuse(const std::string& path, const std::string& what);

// The single character of a one-character string field (Metaspace's replacement, Strip's
// content).
char32_t char_field(const Json& obj, const std::string& key, const std::string& path,
                    char32_t fallback);

}  // namespace moe::tokenize

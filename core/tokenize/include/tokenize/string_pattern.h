#pragma once
// The {"String": "..."} / {"Regex": "..."} patterns of Split, Replace (normalizer and decoder).
#include <string>

#include "tokenize/json_fields.h"
#include "tokenize/regex.h"

namespace moe::tokenize {

Regex make_pattern(const Json& pattern, const std::string& path);

// `text` with every match of `pattern` replaced by `content`.
std::string replace_all(const Regex& pattern, const std::string& text, const std::string& content);

}  // namespace moe::tokenize

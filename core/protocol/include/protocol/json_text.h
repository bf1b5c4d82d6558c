// Short, human-readable renderings of JSON values and numbers for problem messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace moe::protocol::detail {

// "string \"8\"", "number 8.5", "boolean true", "null", "array", "object". Long strings are cut.
std::string describe_json(const nlohmann::json& value);

// Shortest text that reads back as the same double ("0.001", "1e+30"); "nan", "inf", "-inf".
std::string format_number(double value);

// A JSON number as int64 if it is one exactly: integers in range, or floats with an integral
// value up to 2^53 in magnitude (8.0 -> 8). Fills *why ("not an integer", "out of range") when it
// returns nothing.
std::optional<int64_t> json_to_int64(const nlohmann::json& value, std::string* why);

// The JSON string literal for `text`, cut to a readable length; never throws on bad UTF-8.
std::string quote(const std::string& text);

}  // namespace moe::protocol::detail

#include "protocol/json_text.h"

#include <cmath>
#include <limits>

namespace moe::protocol::detail {
namespace {

// Long enough to recognise a value, short enough to keep one problem on one line.
constexpr size_t kMaxShownChars = 40;

}  // namespace

std::string quote(const std::string& text) {
  std::string shown = text.size() > kMaxShownChars ? text.substr(0, kMaxShownChars) : text;
  // replace: a cut in the middle of a UTF-8 sequence (or bad input) must not throw here.
  std::string out =
      nlohmann::json(shown).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (shown.size() < text.size()) out.insert(out.size() - 1, "...");
  return out;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Whole numbers as people write them ("0", not nlohmann's "0.0").
  if (std::trunc(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  // nlohmann prints the shortest round-trip form, independent of the C locale.
  return nlohmann::json(value).dump();
}

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return value.get<bool>() ? "boolean true" : "boolean false";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "number " + value.dump();
    case nlohmann::json::value_t::number_float:
      return "number " + format_number(value.get<double>());
    case nlohmann::json::value_t::string:
      return "string " + quote(value.get_ref<const std::string&>());
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::object:
      return "object";
    default:
      return "binary";
  }
}

std::optional<int64_t> json_to_int64(const nlohmann::json& value, std::string* why) {
  auto fail = [&](const char* reason) -> std::optional<int64_t> {
    if (why) *why = reason;
    return std::nullopt;
  };
  switch (value.type()) {
    case nlohmann::json::value_t::number_integer:
      return value.get<int64_t>();
    case nlohmann::json::value_t::number_unsigned: {
      uint64_t u = value.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return fail("out of range");
      }
      return static_cast<int64_t>(u);
    }
    case nlohmann::json::value_t::number_float: {
      double d = value.get<double>();
      if (!std::isfinite(d)) return fail("not finite");
      if (std::trunc(d) != d) return fail("not an integer");
      // Beyond 2^53 a double need not be the integer that was written (-9223372036854775809
      // reads as -2^63): refuse rather than silently round.
      if (std::fabs(d) > 9007199254740992.0) return fail("out of range");
      return static_cast<int64_t>(d);
    }
    default:
      return fail("not a number");
  }
}

}  // namespace moe::protocol::detail

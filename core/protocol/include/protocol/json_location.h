// Where in a JSON document parsing stops: the JSON pointer of the value being read, so that a
// value nlohmann cannot hold (a number beyond a double's range, 1e400) is reported by its key.
#pragma once

#include <cstddef>
#include <string>

namespace moe::protocol::detail {

struct ParseStop {
  std::string pointer;   // RFC 6901 ("/moe/capacity_factor", "/layers/2"); "" at the top level
  std::string token;     // the text being read there ("1e400")
  std::size_t byte = 0;  // nlohmann's 1-based position of the failure; 0 when parsing succeeds
};

// Where parsing `text` fails.
ParseStop where_parsing_stops(const std::string& text);

}  // namespace moe::protocol::detail

// Private to moe_protocol: a JSON value as one line of a line protocol, bad UTF-8 replaced
// instead of thrown (a message or an id may carry any bytes).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace moe::protocol::detail {

template <class Json>
std::string line_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace moe::protocol::detail

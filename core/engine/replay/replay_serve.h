#pragma once
// moe-train replay --serve (docs/PROTOCOL.md, "moe-train replay"): one MoE layer's tensors are
// loaded once, then every line of `in` is a routing request answered by one JSON line on `out`,
// so a what-if view can move the routing settings without paying for the load each time.
#include <istream>
#include <ostream>
#include <string>

namespace moe::replay {

// Prints {"ready":true,"experts":E,"tokens":N,"dim":M}, answers until the end of `in` and returns
// 0. Loading errors throw InputError (exit 2) before the ready line; a bad request is answered
// with {"id":..,"error":".."} and the server goes on. Returns 1 when `out` cannot be written.
int serve_replay(const std::string& config_file, const std::string& tensors_file,
                 const std::string& prefix, std::istream& in, std::ostream& out);

}  // namespace moe::replay

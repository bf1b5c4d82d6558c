// The line protocol of `moe-train replay --serve` (docs/PROTOCOL.md, "moe-train replay"), both
// directions, for the engine that serves and the app that asks: one request per line in,
// {"id":..,"moe":{...},"seed":..}; one line per request out, the routing of the layer's input
// under the request's setting or an error, after one {"ready":true,...} line. Writers and readers
// are here together so that each side reads exactly what the other writes; the readers are
// tolerant (a line they cannot use is reported, never thrown).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moe::protocol {

// A request line is a few hundred bytes; a longer one is refused without being kept whole.
inline constexpr size_t kMaxReplayRequestBytes = size_t{1} << 20;

struct ReplayRequest {
  nlohmann::json id;                              // a number or a string; null when absent
  nlohmann::json moe = nlohmann::json::object();  // the moe keys to change
  std::optional<int64_t> seed;                    // the gate noise's seed; absent: the config's
};

// The request as one line (no newline).
std::string replay_request_line(const ReplayRequest& request);

// A request line read: the request, or why it is not one (`error`, prefixed "line N: " with
// `line_number`, and the id when it was readable). Syntax only: what the moe keys mean is the
// config's validation's business.
struct ReplayRequestRead {
  std::optional<ReplayRequest> request;
  nlohmann::json id;  // echoed in the error answer
  std::string error;
};
ReplayRequestRead parse_replay_request(std::string_view line, int64_t line_number);

// One answer: the expert_load event's figures for the layer's input (docs/ROUTING.md, "Load
// metrics").
struct ReplayAnswer {
  int64_t capacity = 0;               // slots per expert
  std::vector<int64_t> counts, kept;  // demand and kept choices per expert
  std::vector<double> importance;     // summed gate values per expert
  double l_aux = 0, dropped_frac = 0, cv = 0, max_over_mean = 0, load_entropy = 0,
         router_entropy = 0;  // NaN where undefined (no tokens): null in the line
  int64_t dead_experts = 0;
  int64_t tokens = 0;
  double ms = 0;  // the server's compute time

  int64_t dropped() const;  // choices over capacity, all experts
};

std::string replay_ready_line(int64_t experts, int64_t tokens, int64_t dim);
std::string replay_answer_line(const nlohmann::json& id, const ReplayAnswer& answer);
std::string replay_error_line(const nlohmann::json& id, const std::string& message);

// One line of the server's output (without its newline).
struct ReplayLine {
  enum class Kind { Ready, Answer, Error, Malformed };
  Kind kind = Kind::Malformed;
  std::optional<int64_t> id;  // Answer and Error; an Error about an unreadable line has none
  ReplayAnswer answer;        // Answer
  std::string error;          // Error: the server's message; Malformed: what is wrong
  int64_t experts = 0, tokens = 0, dim = 0;  // Ready
};
ReplayLine parse_replay_line(std::string_view line);

}  // namespace moe::protocol

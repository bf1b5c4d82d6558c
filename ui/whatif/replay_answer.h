// The lines `moe-train replay --serve` writes (docs/PROTOCOL.md, "moe-train replay"): one
// `{"ready":true,...}` when the tensors are loaded, then one answer per request: the routing of
// the layer's input under the request's setting (the expert_load event's figures), or an error.
#pragma once

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace moe::ui {

struct ReplayAnswer {
  int64_t capacity = 0;               // slots per expert
  std::vector<int64_t> counts, kept;  // demand and kept choices per expert
  std::vector<double> importance;     // summed gate values per expert
  double l_aux = 0, dropped_frac = 0, cv = 0, max_over_mean = 0, load_entropy = 0,
         router_entropy = 0;
  int64_t dead_experts = 0;
  int64_t tokens = 0;
  double ms = 0;  // the server's compute time

  int64_t dropped() const;  // choices over capacity, all experts
};

struct ReplayLine {
  enum class Kind { Ready, Answer, Error, Malformed };
  Kind kind = Kind::Malformed;
  std::optional<int64_t> id;  // Answer and Error; an Error about an unreadable line has none
  ReplayAnswer answer;        // Answer
  QString error;              // Error: the server's message; Malformed: what is wrong
  int64_t experts = 0, tokens = 0, dim = 0;  // Ready
};

// One line of the server's stdout (without its newline).
ReplayLine parseReplayLine(std::string_view line);

}  // namespace moe::ui

Q_DECLARE_METATYPE(moe::ui::ReplayAnswer)

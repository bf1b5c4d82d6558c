// The lines `moe-train replay --serve` writes (docs/PROTOCOL.md, "moe-train replay"), as the app
// reads them: the protocol's reader (protocol/replay_lines.h), its messages as QString. One
// `{"ready":true,...}` when the tensors are loaded, then one answer per request: the routing of
// the layer's input under the request's setting (the expert_load event's figures), or an error.
#pragma once

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/replay_lines.h"

namespace moe::ui {

using ReplayAnswer = protocol::ReplayAnswer;

struct ReplayLine {
  using Kind = protocol::ReplayLine::Kind;
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

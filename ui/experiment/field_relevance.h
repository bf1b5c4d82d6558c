// Which keys a config actually uses: heads only matter for the lm, momentum only for sgd, and so
// on. The form dims the others (they stay editable: a user may set them up before switching).
#pragma once

#include <string>

#include "protocol/run_config.h"

namespace moe::ui {

// Why the key at `pointer` has no effect in `config` ("used by the cosine gate only"), or "" when
// it is used.
std::string unusedReason(const std::string& pointer, const protocol::RunConfig& config);

}  // namespace moe::ui

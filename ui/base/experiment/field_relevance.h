// Which keys a config actually uses: heads only matter for the lm, momentum only for sgd, and so
// on. The form dims the others (they stay editable: a user may set them up before switching), and
// offers the values the layout admits where they depend on other keys.
#pragma once

#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::ui {

// Why the key at `pointer` has no effect in `config` ("used by the cosine gate only"), or "" when
// it is used.
std::string unusedReason(const std::string& pointer, const protocol::RunConfig& config);

// The values the form offers for a key whose allowed values depend on the rest of the config:
// parallel.adaptive_r gets "auto", then 0 and the divisors of the expert shards
// (protocol/parallel_layout.h). Empty for every other key.
std::vector<std::string> offeredValues(const std::string& pointer,
                                       const protocol::RunConfig& config);

}  // namespace moe::ui

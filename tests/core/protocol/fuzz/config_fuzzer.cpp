// libFuzzer: bytes -> JSON -> RunConfig parse + validate, and the override parser.
// The documented failures are ConfigError (from config_from_json) and OverrideError; check() and
// parse_config() promise not to throw at all. Anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "protocol/run_config.h"

using namespace moe::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) {
    RunConfig parsed;
    std::vector<ConfigProblem> problems = check(j, &parsed, ValidateOptions{false});
    for (const ConfigProblem& p : problems) (void)format_problem(p);
    bool threw = false;
    try {
      RunConfig c = config_from_json(j);
      // A config that parses must serialise and parse back to the same thing.
      nlohmann::json again = to_json(c);
      if (to_json(config_from_json(again)) != again) __builtin_trap();
      (void)validate(c, ValidateOptions{false});
      (void)to_ordered_json(c).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (const ConfigError& e) {
      threw = true;
      if (e.problems().empty()) __builtin_trap();
    }
    // check() and config_from_json must agree on whether the structure is valid.
    if (!threw && !problems.empty()) {
      std::vector<ConfigProblem> structural;
      parse_config(j, &structural);
      if (!structural.empty()) __builtin_trap();
    }
  }
  // The same bytes as a --set assignment, applied to an empty and a default config.
  for (nlohmann::json target : {nlohmann::json::object(), to_json(RunConfig{})}) {
    try {
      apply_override(target, text);
      (void)check(target, nullptr, ValidateOptions{false});
    } catch (const OverrideError&) {
    }
  }
  return 0;
}

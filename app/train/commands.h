#pragma once
// moe-train's subcommands (docs/PROTOCOL.md, "moe-train commands"). Each registers its options on
// the CLI11 app and returns the callback that runs it; the callback returns the exit status.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace moe::train {

// moe-train's exit statuses (128 + signal for a run a signal stopped).
constexpr int kExitOk = 0;
constexpr int kExitRuntimeFailure = 1;
constexpr int kExitBadInput = 2;  // an InputError, ConfigError, DataError or unreadable tensors

using Command = std::function<int()>;

// A number above zero (or at least zero); CLI11's own checks print the whole range of a double.
inline CLI::Validator number_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& value) -> std::string {
        double number = 0;
        if (!CLI::detail::lexical_cast(value, number) ||
            !(number > 0 || (zero_allowed && number == 0)))
          return std::string(zero_allowed ? "must be zero or more" : "must be a positive number") +
                 ", got " + value;
        return {};
      },
      zero_allowed ? "NON-NEGATIVE" : "POSITIVE");
}
inline CLI::Validator positive_number() {
  return number_check(false);
}
inline CLI::Validator non_negative_number() {
  return number_check(true);
}

Command add_validate_command(CLI::App& app);
Command add_replay_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_run_command(CLI::App& app);
Command add_launch_command(CLI::App& app);
Command add_plan_command(CLI::App& app);
Command add_tokenize_command(CLI::App& app);
Command add_forward_command(CLI::App& app);
Command add_generate_command(CLI::App& app);
Command add_analyze_command(CLI::App& app);
Command add_import_hf_command(CLI::App& app);
Command add_export_hf_command(CLI::App& app);

}  // namespace moe::train

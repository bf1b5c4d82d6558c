// moe-train validate --config FILE: every problem of the config, exit status 2 if any.
#include <iostream>

#include "commands.h"
#include "train/config_input.h"

namespace moe::train {

Command add_validate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("validate", "Check a RunConfig file and print every problem");
  auto config_path = std::make_shared<std::string>();
  auto overrides = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--config", *config_path, "RunConfig JSON file")->required();
  cmd->add_option("--set", *overrides, "Override a key: key.path=value (repeatable)");
  return [=]() {
    load_valid_config(*config_path, *overrides);  // throws InputError listing every problem
    std::cout << *config_path << ": ok\n";
    return kExitOk;
  };
}

}  // namespace moe::train

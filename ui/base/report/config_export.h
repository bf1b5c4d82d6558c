// A run's config as one JSON file with the command lines that start it by hand (docs/REPORTS.md,
// "Config export"): {"run_id", "config_file", "config": the resolved RunConfig, "commands":
// [{"title", "note", "command"}] for moe-train, moe-train launch, torchrun and srun}. The commands
// name the run directory's config.json. Plain files: any thread.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

namespace moe::ui {

nlohmann::json configExportJson(const nlohmann::json& config, const QString& run_id,
                                const QString& config_file);

// Reads `run_dir`'s config (config.json, else run_start's) and writes `out_path`. False with
// *error when it is no run directory or the file cannot be written.
bool exportRunConfig(const QString& run_dir, const QString& out_path, QString* error);

}  // namespace moe::ui

// How numbers, durations and sizes read in a report, and the command lines that start a run's
// config by hand (command_exports.h) as report blocks. Shared by the run and comparison reports.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include "base/plot_data/readout_format.h"  // durationText

namespace moe::ui {

struct ReportDocument;

// Five significant digits ("0.01235", "1.2346e+06"); an em dash for NaN.
QString reportNumber(double value);
// "812 B", "3.4 KiB", "12.0 MiB".
QString byteText(double bytes);

// The moe-train, moe-train launch, torchrun and srun lines that start `config` from
// `config_file`, one code block each with its note; a paragraph instead when the config cannot
// be read as a RunConfig.
void addCommandLines(ReportDocument* doc, const nlohmann::json& config, const QString& config_file);

}  // namespace moe::ui

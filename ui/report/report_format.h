// How numbers, durations and sizes read in a report, and the command lines that start a run's
// config by hand (command_exports.h) as report blocks. Shared by the run and comparison reports.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

namespace moe::ui {

struct ReportDocument;

// Five significant digits ("0.01235", "1.2346e+06"); an em dash for NaN.
QString reportNumber(double value);
// "4.2 s", "42 s", "3 min 05 s", "2 h 04 min": the one duration format of the app's prose (the
// Runs table's column and the dashboard's clocks are compact on purpose).
QString durationText(double seconds);
// "812 B", "3.4 KiB", "12.0 MiB".
QString byteText(double bytes);

// The moe-train, moe-train launch, torchrun and srun lines that start `config` from
// `config_file`, one code block each with its note; a paragraph instead when the config cannot
// be read as a RunConfig.
void addCommandLines(ReportDocument* doc, const nlohmann::json& config, const QString& config_file);

}  // namespace moe::ui

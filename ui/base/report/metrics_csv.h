// A run's telemetry as CSV files, one per event type (docs/REPORTS.md, "CSV"): run_start.csv,
// step.csv, expert_load.csv, phases.csv, eval.csv, checkpoint.csv, log.csv, run_end.csv, ranks.csv,
// adaptive_r.csv; each with a header row and one row per event in file order (a resumed run
// repeats steps, as metrics.jsonl does). Wide where the event holds arrays: expert_load has
// counts_0..counts_<E-1>, kept_*, importance_* (E the most experts of any layer; empty cells for a
// layer with fewer), phases one column per phase name, ranks one row per rank and step. Any other
// event type this build reads gets `<type>.csv` with a column per key of its JSON object.
// Numbers read back exactly (shortest round-trip text); NaN (null in the JSON) and absent optional
// fields are empty cells; texts are quoted per RFC 4180. Plain files, no GUI: any thread.
#pragma once

#include <QString>
#include <QStringList>

namespace moe::ui {

// The file names written, in order.
QStringList metricsCsvFiles();

// Reads `run_dir`/metrics.jsonl and writes the CSV files into `out_dir` (made when missing).
// False with *error when the run directory has no telemetry or a file cannot be written.
bool exportMetricsCsv(const QString& run_dir, const QString& out_dir, QString* error);

}  // namespace moe::ui

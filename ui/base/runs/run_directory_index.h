// Turning a run directory (docs/PROTOCOL.md, "The run directory") or a run's in-memory telemetry
// into a RunRecord. Synchronous: indexRunDirectory parses the whole metrics.jsonl, so call it off
// the GUI thread when there are many or large runs.
#pragma once

#include <QString>

#include <optional>

#include <nlohmann/json.hpp>

#include "base/runs/run_record.h"
#include "base/telemetry/run_series.h"

namespace moe::ui {

// Reads <dir>/metrics.jsonl and summarises it; the config comes from run_start, else from
// <dir>/config.json. Without a readable metrics.jsonl that has a run_start: nullopt and *error
// naming the file and the problem. A run without run_end is "incomplete".
// A remote run's directory (remote.json, launch/remote_run_record.h) is a run even before its
// telemetry arrives: its target is remote.json's, and without a run_end its status is the state
// the app last saw there ("running", "starting", "failed" with the error, ...).
std::optional<RunRecord> indexRunDirectory(const QString& dir, QString* error = nullptr);

// Whether `dir` holds a run to index: a metrics.jsonl, or a remote run's remote.json.
bool hasRunFiles(const QString& dir);

// The summary of telemetry already in memory (a live run). `live`: no run_end means "running"
// (else "incomplete"). File times and config.json are read from run_dir when they exist.
RunRecord summarizeSeries(const RunSeries& series, const QString& run_dir, bool live = true);

// The store's key for a directory: canonical when it exists, else absolute and cleaned.
QString canonicalRunDir(const QString& dir);

// SHA-256 hex of the config's compact dump (nlohmann sorts object keys): equal configs, equal
// hashes. Empty for an empty or non-object config.
QString configHash(const nlohmann::json& config);

}  // namespace moe::ui

#pragma once
// trace.json of a run (telemetry.trace; docs/PROTOCOL.md, "The run directory"): one process per
// rank in the trace. Each rank i > 0 writes its own trace to trace.rank<i>.json; rank 0 waits for
// them (a barrier), merges them with its own into trace.json and removes the files it merged.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dist/process_group.h"
#include "trace/trace_recorder.h"

namespace moe::trace {

// One trace of several recorders' documents (TraceRecorder::document()): their events, each
// document's "ts" moved so that all share one time origin (the earliest origin_unix_us), its
// dropped events summed.
nlohmann::json merge_traces(const std::vector<nlohmann::json>& documents);

// At the end of a run, on every rank. `trace` becomes process <rank> named "rank <rank> (<host>)".
// `ranks_agree`: every rank ends the run here at the same point (completed or cancelled), so rank
// 0 can wait for the others' files; false after a failure, when a rank may never come: rank 0
// merges the files already there and the others stay as trace.rank<i>.json. Returns warnings
// for the log (a rank's trace missing from trace.json); std::runtime_error when a file cannot be
// written.
std::vector<std::string> write_run_trace(TraceRecorder& trace, const std::string& run_dir,
                                         dist::ProcessGroup& group, const std::string& host,
                                         bool ranks_agree);

}  // namespace moe::trace

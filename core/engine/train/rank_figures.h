#pragma once
// The per-rank figures of a logged step (docs/PROTOCOL.md, "ranks"), gathered from every rank so
// that rank 0 can show a straggler or a rank waiting on its collectives.
#include <string>
#include <vector>

#include "dist/process_group.h"
#include "protocol/telemetry_events.h"

namespace moe::train {

// Every rank's host name, in rank order (once per run: host names do not change).
std::vector<std::string> gather_hosts(dist::ProcessGroup& group, const std::string& host);

// This process's peak resident memory in bytes.
int64_t peak_resident_bytes();

// Every rank passes its own figures (rank and host are filled in here); all get the event.
protocol::RanksEvent gather_rank_figures(dist::ProcessGroup& group, int64_t step,
                                         const protocol::RankFigures& mine,
                                         const std::vector<std::string>& hosts);

}  // namespace moe::train

#pragma once
// Slurm's compressed lists, as srun exports them: host lists (SLURM_JOB_NODELIST) and task counts
// per node (SLURM_TASKS_PER_NODE). Malformed text throws std::invalid_argument saying what is
// wrong; the caller names the variable.
#include <cstdint>
#include <string>
#include <vector>

namespace moe::launch {

// "node[01-04,07],gpu5" -> node01 node02 node03 node04 node07 gpu5. A range keeps the width of its
// lower bound ("[08-10]" -> 08 09 10); several bracket groups in one name expand to every
// combination, the last group fastest ("r[1-2]n[1-2]" -> r1n1 r1n2 r2n1 r2n2).
std::vector<std::string> expand_hostlist(const std::string& list);

// "2(x3),1" -> 2 2 2 1: one task count per node, in node order.
std::vector<int64_t> expand_tasks_per_node(const std::string& list);

}  // namespace moe::launch

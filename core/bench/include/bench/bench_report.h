#pragma once
// How benchmark results are shown: a table for people, JSON for tools (keys in docs/PROTOCOL.md).
#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "bench/layer_benchmark.h"

namespace moe::bench {

void print_bench_table(std::ostream& out, const std::vector<LayerBenchResult>& results);
nlohmann::json bench_json(const LayerBenchResult& result);

}  // namespace moe::bench

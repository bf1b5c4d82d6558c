#pragma once
// Data parallelism's view of a source: every rank reads the same global batches (so the data order
// does not depend on the number of ranks) and keeps rows [rank * B / W, (rank + 1) * B / W).
#include "data/batch_source.h"

namespace moe::data {

// Wraps `inner` for rank `rank` of `world` (world 1 returns inner itself). Held-out batches whose
// rows do not split evenly (a partial last batch) are left out: every rank must run each batch.
std::unique_ptr<BatchSource> rank_slice(std::unique_ptr<BatchSource> inner, int64_t rank,
                                        int64_t world);

}  // namespace moe::data

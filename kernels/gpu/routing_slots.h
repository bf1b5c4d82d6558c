#pragma once
// slot_locations on the device without atomics (docs/ROUTING.md, "Slots (locations)"). Token
// positions (in claiming order) are cut into tiles. (1) One block per (choice j, tile) counts,
// per expert, the tile's choices: hist[j, tile, e]. (2) One block per expert turns hist into an
// exclusive scan over (j, tile): the first slot of every (j, tile), and c_j[e] = the difference
// between the starts of choice j and j+1. (3) One block per (j, tile) hands out slots in order.
#include <cstddef>

#include "routing_items.h"
#include "scratch.h"

namespace moe::kernels::gpu {

struct SlotParams {
  const int32_t* idx;    // [k, N]
  const int64_t* order;  // [N] claiming order, nullable: 0..N-1
  int64_t N, E, k;
  int64_t tile_len, tiles;  // token positions per tile, tiles per choice
  int64_t* hist;            // [k, tiles, E] counts, then first slots
  int64_t* counts;          // [k, E]
  int32_t* loc;             // [k, N]
  int64_t first_item;
};

// Loads the experts of tile `item` (= j * tiles + tile) in claiming order into shared memory; -1
// for positions past N and for invalid entries (which the CPU refuses), so they take no slot.
MOE_HD inline void load_tile(const Thread& t, const SlotParams& p, int64_t item, int32_t* experts) {
  const int64_t j = item / p.tiles, t0 = (item % p.tiles) * p.tile_len;
  for (int64_t i = t.thread; i < p.tile_len; i += t.threads) {
    const int64_t pos = t0 + i;
    int32_t e = -1;
    if (pos < p.N) {
      const int64_t n = p.order ? p.order[pos] : pos;
      if (n >= 0 && n < p.N) {
        const int32_t v = p.idx[j * p.N + n];
        if (v >= 0 && v < p.E) e = v;
      }
    }
    experts[i] = e;
  }
}

// (1) hist[item, e] = the number of the tile's choices that go to expert e (a thread per expert).
struct SlotCountKernel {
  using Params = SlotParams;
  struct Local {};
  static constexpr int kPhases = 2;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local&,
                         unsigned char* shared) {
    const int64_t item = p.first_item + t.block;
    int32_t* experts = reinterpret_cast<int32_t*>(shared);
    if (phase == 0) return load_tile(t, p, item, experts);
    for (int64_t e = t.thread; e < p.E; e += t.threads) {
      int64_t c = 0;
      for (int64_t i = 0; i < p.tile_len; ++i) c += experts[i] == e ? 1 : 0;
      p.hist[item * p.E + e] = c;
    }
  }
};

// (2) One block per expert e: each thread sums a chunk of the (j, tile) sequence, every thread
// then adds up the chunks before its own, rescans its chunk into first slots, and c_j[e] is read
// off the starts of choices j and j+1 (written by other threads before the last barrier).
struct SlotScanKernel {
  using Params = SlotParams;
  struct Local {
    int64_t prefix = 0, total = 0;
  };
  static constexpr int kPhases = 4;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local& l,
                         unsigned char* shared) {
    const int64_t e = p.first_item + t.block, S = p.k * p.tiles;
    const int64_t chunk = (S + t.threads - 1) / t.threads;
    const int64_t s0 = t.thread * chunk, s1 = s0 + chunk < S ? s0 + chunk : S;
    int64_t* sums = reinterpret_cast<int64_t*>(shared);
    if (phase == 0) {
      int64_t c = 0;
      for (int64_t s = s0; s < s1; ++s) c += p.hist[s * p.E + e];
      sums[t.thread] = c;
    } else if (phase == 1) {
      for (int i = 0; i < t.threads; ++i) {
        if (i < t.thread) l.prefix += sums[i];
        l.total += sums[i];
      }
    } else if (phase == 2) {
      int64_t running = l.prefix;
      for (int64_t s = s0; s < s1; ++s) {
        const int64_t c = p.hist[s * p.E + e];
        p.hist[s * p.E + e] = running;
        running += c;
      }
    } else {
      for (int64_t j = t.thread; j < p.k; j += t.threads) {
        const int64_t begin = j * p.tiles < S ? p.hist[j * p.tiles * p.E + e] : l.total;
        const int64_t end = (j + 1) * p.tiles < S ? p.hist[(j + 1) * p.tiles * p.E + e] : l.total;
        p.counts[j * p.E + e] = end - begin;
      }
    }
  }
};

// (3) A thread per expert ranks the tile's choices of its expert (in claiming order); a thread
// per position then writes loc = first slot of (j, tile, e) + rank.
struct SlotAssignKernel {
  using Params = SlotParams;
  struct Local {};
  static constexpr int kPhases = 3;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local&,
                         unsigned char* shared) {
    const int64_t item = p.first_item + t.block;
    int32_t* experts = reinterpret_cast<int32_t*>(shared);
    int32_t* rank = experts + p.tile_len;
    if (phase == 0) return load_tile(t, p, item, experts);
    if (phase == 1) {
      for (int64_t e = t.thread; e < p.E; e += t.threads) {
        int32_t r = 0;
        for (int64_t i = 0; i < p.tile_len; ++i) {
          if (experts[i] == e) rank[i] = r++;
        }
      }
      return;
    }
    const int64_t j = item / p.tiles, t0 = (item % p.tiles) * p.tile_len;
    for (int64_t i = t.thread; i < p.tile_len; i += t.threads) {
      const int32_t e = experts[i];
      if (e < 0) continue;
      const int64_t n = p.order ? p.order[t0 + i] : t0 + i;
      p.loc[j * p.N + n] = static_cast<int32_t>(p.hist[item * p.E + e] + rank[i]);
    }
  }
};

// Tiles are a multiple of the block and about E long (each expert thread scans the whole tile,
// and the histogram is E per tile), at most 2048 positions (16 KiB of shared memory).
inline int64_t slot_tile_len(int threads, int64_t E) {
  const int64_t most = 2048 / threads > 1 ? 2048 / threads : 1;
  const int64_t per_thread = (E + threads - 1) / threads;
  return threads * (per_thread < 1 ? 1 : (per_thread > most ? most : per_thread));
}

// Scratch bytes slot_locations_in needs for its histogram.
inline size_t slot_scratch_bytes(int threads, int64_t N, int64_t E, int64_t k) {
  const int64_t tile_len = slot_tile_len(threads, E);
  return static_cast<size_t>(k * ((N + tile_len - 1) / tile_len) * E) * sizeof(int64_t);
}

// slot_locations with its histogram in `hist` (slot_scratch_bytes), for callers that carve it
// from their own scratch.
template <typename Device>
void slot_locations_in(const Launch<Device>& launch, int64_t* hist, const int32_t* idx, int64_t N,
                       int64_t E, int64_t k, const int64_t* token_order, int32_t* loc,
                       int64_t* counts) {
  if (k <= 0 || E <= 0) return;
  const int64_t n = N > 0 ? N : 0;
  const int64_t tile_len = slot_tile_len(launch.threads, E);
  const int64_t tiles = (n + tile_len - 1) / tile_len;
  const SlotParams p{idx, token_order, n, E, k, tile_len, tiles, hist, counts, loc, 0};
  const size_t tile_bytes = static_cast<size_t>(tile_len) * sizeof(int32_t);
  run_items<SlotCountKernel>(launch, k * tiles, tile_bytes, p);
  run_items<SlotScanKernel>(launch, E, static_cast<size_t>(launch.threads) * sizeof(int64_t), p);
  run_items<SlotAssignKernel>(launch, k * tiles, 2 * tile_bytes, p);
}

// loc of every choice and counts c_j[e]. Slots past int32 are not detected here (the CPU throws).
template <typename Device>
void slot_locations(const Launch<Device>& launch, const int32_t* idx, int64_t N, int64_t E,
                    int64_t k, const int64_t* token_order, int32_t* loc, int64_t* counts) {
  if (k <= 0 || E <= 0) return;
  const size_t bytes = slot_scratch_bytes(launch.threads, N > 0 ? N : 0, E, k);
  auto* hist = static_cast<int64_t*>(launch.scratch->get(bytes, launch.stream));
  slot_locations_in(launch, hist, idx, N, E, k, token_order, loc, counts);
}

}  // namespace moe::kernels::gpu

#pragma once
// Routing (docs/ROUTING.md) as device kernels written once for CUDA, HIP and the host emulation;
// the results are the CPU backend's bit for bit. Every pointer is on the device and no driver
// reads device memory, so a call only enqueues work on launch.stream.
//   topk_choices     routing_topk.h      slot_locations  routing_slots.h
//   priority_order   routing_priority.h  demand, kept, slot map: here
#include "routing_priority.h"
#include "routing_slots.h"
#include "routing_topk.h"
#include "scratch.h"

namespace moe::kernels::gpu {

// One block: demand[e] = sum_j counts[j, e] by a thread per expert, then thread 0 takes the max of
// the threads' maxima from shared memory (0 when E = 0, as on the CPU).
struct DemandKernel {
  struct Params {
    const int64_t* counts;
    int64_t E, k;
    int64_t* demand;
    int64_t* max_demand;  // nullable
  };
  struct Local {};
  static constexpr int kPhases = 2;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local&,
                         unsigned char* shared) {
    int64_t* maxima = reinterpret_cast<int64_t*>(shared);
    if (phase == 0) {
      int64_t most = INT64_MIN;
      for (int64_t e = t.thread; e < p.E; e += t.threads) {
        int64_t d = 0;
        for (int64_t j = 0; j < p.k; ++j) d += p.counts[j * p.E + e];
        p.demand[e] = d;
        most = d > most ? d : most;
      }
      maxima[t.thread] = most;
    } else if (t.thread == 0 && p.max_demand) {
      int64_t most = INT64_MIN;
      for (int i = 0; i < t.threads; ++i) most = maxima[i] > most ? maxima[i] : most;
      *p.max_demand = p.E > 0 ? most : 0;
    }
  }
};

struct KeptKernel {
  struct Params {
    const int64_t* demand;
    int64_t E, C;
    int64_t* kept;
  };
  struct Local {};
  static constexpr int kPhases = 1;
  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    for (int64_t e = t.global(); e < p.E; e += t.stride()) {
      p.kept[e] = p.demand[e] < p.C ? p.demand[e] : p.C;
    }
  }
};

struct FillKernel {
  struct Params {
    int64_t* out;
    int64_t size, value;
  };
  struct Local {};
  static constexpr int kPhases = 1;
  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    for (int64_t i = t.global(); i < p.size; i += t.stride()) p.out[i] = p.value;
  }
};

// Each kept choice owns its slot, so the scatter has no conflicting writes.
struct SlotMapScatterKernel {
  struct Params {
    const int32_t* idx;
    const int32_t* loc;
    int64_t N, E, k, C;
    int64_t* slot_map;
  };
  struct Local {};
  static constexpr int kPhases = 1;
  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    for (int64_t c = t.global(); c < p.k * p.N; c += t.stride()) {
      const int32_t s = p.loc[c], e = p.idx[c];
      if (s < 0 || s >= p.C || e < 0 || e >= p.E) continue;
      p.slot_map[e * p.C + s] = c;
    }
  }
};

template <typename Device>
void demand_from_counts(const Launch<Device>& launch, const int64_t* counts, int64_t E, int64_t k,
                        int64_t* demand, int64_t* max_demand) {
  if (E <= 0 && !max_demand) return;
  launch.template run<DemandKernel>(1, static_cast<size_t>(launch.threads) * sizeof(int64_t),
                                    DemandKernel::Params{counts, E, k, demand, max_demand});
}

template <typename Device>
void kept_counts(const Launch<Device>& launch, const int64_t* demand, int64_t E, int64_t C,
                 int64_t* kept) {
  if (E <= 0) return;
  launch.template run<KeptKernel>(blocks_for(E, launch.threads), 0,
                                  KeptKernel::Params{demand, E, C, kept});
}

template <typename Device>
void build_slot_map(const Launch<Device>& launch, const int32_t* idx, const int32_t* loc, int64_t N,
                    int64_t E, int64_t k, int64_t C, int64_t* slot_map) {
  if (E <= 0 || C <= 0) return;
  launch.template run<FillKernel>(blocks_for(E * C, launch.threads), 0,
                                  FillKernel::Params{slot_map, E * C, -1});
  if (N <= 0 || k <= 0) return;
  launch.template run<SlotMapScatterKernel>(
      blocks_for(k * N, launch.threads), 0,
      SlotMapScatterKernel::Params{idx, loc, N, E, k, C, slot_map});
}

}  // namespace moe::kernels::gpu

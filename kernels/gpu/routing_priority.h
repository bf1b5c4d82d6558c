#pragma once
// priority_order on the device: a stable LSD radix sort of the tokens by descending priority,
// 8 bits a pass (4 passes for float32, 8 for float64), O(N) work a pass. Each pass is a stable
// counting sort by one digit, which is exactly slot_locations with k = 1, E = 256 and the
// previous pass's order as the claiming order: new position = start of the digit + loc. Starting
// from 0..N-1, stability leaves ties in token order, as the CPU's stable_sort does.
#include <stdexcept>

#include "common/topk_keys.h"
#include "moe_kernels/backend.h"
#include "routing_slots.h"
#include "scratch.h"

namespace moe::kernels::gpu {

constexpr int64_t kRadixDigits = 256;

template <typename T>
struct RadixDigitKernel {
  struct Params {
    const T* priority;
    int64_t N;
    int shift;
    int32_t* digit;
  };
  struct Local {};
  static constexpr int kPhases = 1;
  // Ascending sort of ~order_bits: descending priority, NaN (order_bits 0) last.
  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    for (int64_t n = t.global(); n < p.N; n += t.stride()) {
      const auto key = ~order_bits(p.priority[n]);
      p.digit[n] = static_cast<int32_t>((key >> p.shift) & 0xffu);
    }
  }
};

// next[start of digit + loc] = n; every block first turns the digit counts into starts.
struct RadixScatterKernel {
  struct Params {
    const int32_t* digit;
    const int32_t* loc;
    const int64_t* counts;  // [256]
    int64_t N;
    int64_t* next;
  };
  struct Local {};
  static constexpr int kPhases = 3;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local&,
                         unsigned char* shared) {
    int64_t* start = reinterpret_cast<int64_t*>(shared);
    if (phase == 0) {
      for (int64_t d = t.thread; d < kRadixDigits; d += t.threads) start[d] = p.counts[d];
    } else if (phase == 1) {
      if (t.thread != 0) return;
      int64_t running = 0;
      for (int64_t d = 0; d < kRadixDigits; ++d) {
        const int64_t c = start[d];
        start[d] = running;
        running += c;
      }
    } else {
      for (int64_t n = t.global(); n < p.N; n += t.stride()) {
        p.next[start[p.digit[n]] + p.loc[n]] = n;
      }
    }
  }
};

template <typename Device, typename T>
void priority_order_typed(const Launch<Device>& launch, const T* priority, int64_t N,
                          int64_t* order) {
  // One scratch buffer, carved: int64 arrays first, then int32 ones.
  const size_t hist_bytes = slot_scratch_bytes(launch.threads, N, kRadixDigits, 1);
  const size_t n_bytes = static_cast<size_t>(N);
  const size_t bytes =
      hist_bytes + (n_bytes + kRadixDigits) * sizeof(int64_t) + 2 * n_bytes * sizeof(int32_t);
  auto* base = static_cast<unsigned char*>(launch.scratch->get(bytes, launch.stream));
  auto* hist = reinterpret_cast<int64_t*>(base);
  int64_t* other = hist + hist_bytes / sizeof(int64_t);  // the ping-pong partner of order
  int64_t* counts = other + N;
  auto* digit = reinterpret_cast<int32_t*>(counts + kRadixDigits);
  int32_t* loc = digit + N;

  constexpr int kPasses = static_cast<int>(sizeof(T));  // even, so the last pass writes order
  const int64_t blocks = blocks_for(N, launch.threads);
  const size_t start_bytes = kRadixDigits * sizeof(int64_t);
  for (int pass = 0; pass < kPasses; ++pass) {
    const int64_t* current = pass == 0 ? nullptr : (pass % 2 ? other : order);
    int64_t* next = pass % 2 ? order : other;
    launch.template run<RadixDigitKernel<T>>(
        blocks, 0, typename RadixDigitKernel<T>::Params{priority, N, 8 * pass, digit});
    slot_locations_in(launch, hist, digit, N, kRadixDigits, 1, current, loc, counts);
    launch.template run<RadixScatterKernel>(
        blocks, start_bytes, RadixScatterKernel::Params{digit, loc, counts, N, next});
  }
}

template <typename Device>
void priority_order(const Launch<Device>& launch, DType dtype, const void* priority, int64_t N,
                    int64_t* order) {
  visit_score_dtype(dtype, "priority_order", [&](auto tag) {
    using T = decltype(tag);
    if (N > 0) priority_order_typed<Device>(launch, static_cast<const T*>(priority), N, order);
  });
}

}  // namespace moe::kernels::gpu

// Routing kernels (docs/ROUTING.md) on every backend: the worked example, batch-prioritized order,
// ties, selection bias, capacity, and random cases against the naive reference.
#include <moe_kernels/capacity.h>

#include <cmath>
#include <limits>

#include "test_util.h"

namespace moe::kernels::test {
namespace {

using RoutingBackendTest = BackendTest;
MOE_INSTANTIATE_FOR_BACKENDS(RoutingBackendTest);

// The worked example of docs/ROUTING.md ("Worked example"): 6 tokens, 4 experts.
const double kLogits[6][4] = {{2, .5, .1, -1}, {1.5, 1.4, 0, 0}, {.2, 2.2, .1, 0},
                              {1.9, 0, 1, .3}, {0, .1, .2, 3},   {2.5, 0, 0, 2.4}};

template <typename T>
std::vector<T> worked_example_scores() {
  std::vector<T> s(24);
  for (int n = 0; n < 6; ++n) {
    double mx = kLogits[n][0], sum = 0;
    for (double v : kLogits[n]) mx = std::max(mx, v);
    for (double v : kLogits[n]) sum += std::exp(v - mx);
    for (int e = 0; e < 4; ++e) s[n * 4 + e] = static_cast<T>(std::exp(kLogits[n][e] - mx) / sum);
  }
  return s;
}

struct Routed {
  std::vector<int32_t> idx, loc;
  std::vector<int64_t> counts, demand, kept, map;
  int64_t C = 0;
};

// Runs the whole routing chain of docs/ROUTING.md on a backend.
template <typename T>
Routed route(const Backend& be, const std::vector<T>& scores, int64_t N, int64_t E, int64_t k,
             double factor, bool prioritized, const float* bias = nullptr) {
  Routed r;
  r.idx.assign(static_cast<size_t>(k * N), -7);
  be.routing<T>().topk_choices(scores.data(), N, E, k, bias, r.idx.data());
  std::vector<int64_t> order(static_cast<size_t>(N));
  if (prioritized) {
    std::vector<T> top1(static_cast<size_t>(N));
    for (int64_t n = 0; n < N; ++n) top1[n] = scores[n * E + r.idx[n]];
    be.routing<T>().priority_order(top1.data(), N, order.data());
  }
  r.loc.assign(static_cast<size_t>(k * N), -7);
  r.counts.assign(static_cast<size_t>(k * E), -7);
  be.slot_locations(r.idx.data(), N, E, k, prioritized ? order.data() : nullptr, r.loc.data(),
                    r.counts.data());
  r.demand.assign(static_cast<size_t>(E), -7);
  int64_t max_demand = -7;
  be.demand_from_counts(r.counts.data(), E, k, r.demand.data(), &max_demand);
  EXPECT_EQ(max_demand, *std::max_element(r.demand.begin(), r.demand.end()));
  r.C = capacity(factor, N, E, k, max_demand, 1);
  r.kept.assign(static_cast<size_t>(E), -7);
  be.kept_counts(r.demand.data(), E, r.C, r.kept.data());
  r.map.assign(static_cast<size_t>(E * r.C), -7);
  be.build_slot_map(r.idx.data(), r.loc.data(), N, E, k, r.C, r.map.data());
  return r;
}

using V32 = std::vector<int32_t>;
using V64 = std::vector<int64_t>;

template <typename T>
void check_worked_example_top1(const Backend& be) {
  SCOPED_TRACE(type_name<T>());
  const Routed r = route(be, worked_example_scores<T>(), 6, 4, 1, 1.0, false);
  EXPECT_EQ(r.idx, (V32{0, 0, 1, 0, 3, 0}));
  EXPECT_EQ(r.loc, (V32{0, 1, 0, 2, 0, 3}));
  EXPECT_EQ(r.counts, (V64{4, 1, 0, 1}));
  EXPECT_EQ(r.demand, (V64{4, 1, 0, 1}));
  EXPECT_EQ(r.C, 2);
  EXPECT_EQ(r.kept, (V64{2, 1, 0, 1}));
  // Slot map: expert 0 holds tokens 0 and 1; tokens 3 and 5 (slots 2, 3) are the two dropped.
  EXPECT_EQ(r.map, (V64{0, 1, 2, -1, -1, -1, 4, -1}));
  int64_t kept_total = 0;
  for (int64_t v : r.kept) kept_total += v;
  EXPECT_EQ(6 - kept_total, 2);
}

TEST_P(RoutingBackendTest, WorkedExampleTop1) {
  check_worked_example_top1<float>(be());
  check_worked_example_top1<double>(be());
}

template <typename T>
void check_worked_example_top2(const Backend& be) {
  SCOPED_TRACE(type_name<T>());
  const Routed r = route(be, worked_example_scores<T>(), 6, 4, 2, 1.0, false);
  EXPECT_EQ(r.idx, (V32{0, 0, 1, 0, 3, 0, /* second choices */ 1, 1, 0, 2, 2, 3}));
  // Second choices start after every first choice of their expert.
  EXPECT_EQ(r.loc, (V32{0, 1, 0, 2, 0, 3, /**/ 1, 2, 4, 0, 1, 1}));
  EXPECT_EQ(r.counts, (V64{4, 1, 0, 1, /**/ 1, 2, 2, 1}));
  EXPECT_EQ(r.demand, (V64{5, 3, 2, 2}));
  EXPECT_EQ(r.C, 4);
  EXPECT_EQ(r.kept, (V64{4, 3, 2, 2}));
  // Only token 2's second choice (expert 0, slot 4) is dropped.
  int dropped = 0;
  for (size_t c = 0; c < r.loc.size(); ++c) {
    if (r.loc[c] >= r.C) {
      ++dropped;
      EXPECT_EQ(c, 6u + 2u);
      EXPECT_EQ(r.idx[c], 0);
      EXPECT_EQ(r.loc[c], 4);
    }
  }
  EXPECT_EQ(dropped, 1);
  EXPECT_EQ(r.map, (V64{0, 1, 3, 5, /**/ 2, 6, 7, -1, /**/ 9, 10, -1, -1, /**/ 4, 11, -1, -1}));
}

TEST_P(RoutingBackendTest, WorkedExampleTop2) {
  check_worked_example_top2<float>(be());
  check_worked_example_top2<double>(be());
}

// Batch-prioritized routing on the worked example: top-1 scores are
// [.703, .425, .731, .569, .858, .483], so tokens claim slots in the order 4, 2, 0, 3, 5, 1 and
// expert 0's least confident tokens (5 and 1) are the ones dropped at C = 2.
TEST_P(RoutingBackendTest, WorkedExampleBatchPrioritized) {
  const Routed r = route(be(), worked_example_scores<float>(), 6, 4, 1, 1.0, true);
  EXPECT_EQ(r.idx, (V32{0, 0, 1, 0, 3, 0}));
  EXPECT_EQ(r.loc, (V32{0, 3, 0, 1, 0, 2}));
  EXPECT_EQ(r.C, 2);
  EXPECT_EQ(r.map, (V64{0, 3, 2, -1, -1, -1, 4, -1}));

  const Routed r2 = route(be(), worked_example_scores<double>(), 6, 4, 2, 1.0, true);
  EXPECT_EQ(r2.loc, (V32{0, 3, 0, 1, 0, 2, /**/ 1, 2, 4, 1, 0, 1}));
}

// A hand-computed case with ties in the priority.
TEST_P(RoutingBackendTest, BatchPrioritizedHandComputed) {
  const std::vector<double> priority = {0.1, 0.9, 0.5, 0.9, 0.3};
  std::vector<int64_t> order(5, -1);
  be().routing<double>().priority_order(priority.data(), 5, order.data());
  EXPECT_EQ(order, (V64{1, 3, 2, 4, 0}));  // 0.9 tie: token 1 before token 3

  // k = 2, E = 2. First choices [0,0,1,0,0], second choices [1,1,0,1,1].
  const V32 idx = {0, 0, 1, 0, 0, /**/ 1, 1, 0, 1, 1};
  V32 loc(10, -1);
  V64 counts(4, -1);
  be().slot_locations(idx.data(), 5, 2, 2, order.data(), loc.data(), counts.data());
  // Expert 0, first choices in order 1,3,4,0 -> slots 0,1,2,3; expert 1: token 2 -> 0.
  // Second choices: expert 1 after its 1 first choice, order 1,3,4,0 -> 1,2,3,4; expert 0:
  // token 2 -> 4.
  EXPECT_EQ(loc, (V32{3, 0, 0, 1, 2, /**/ 4, 1, 4, 2, 3}));
  EXPECT_EQ(counts, (V64{4, 1, 1, 4}));

  // Without the order: plain token order.
  be().slot_locations(idx.data(), 5, 2, 2, nullptr, loc.data(), counts.data());
  EXPECT_EQ(loc, (V32{0, 1, 0, 2, 3, /**/ 1, 2, 4, 3, 4}));
}

TEST_P(RoutingBackendTest, PriorityOrderIsStableDescendingWithNanLast) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> p = {0.5f, nan, 0.7f, 0.5f, -1.f, 0.7f, nan, 0.5f};
  V64 order(p.size(), -1);
  be().routing<float>().priority_order(p.data(), static_cast<int64_t>(p.size()), order.data());
  EXPECT_EQ(order, (V64{2, 5, 0, 3, 7, 4, 1, 6}));
}

TEST_P(RoutingBackendTest, TopkTiesGoToLowerExpert) {
  const std::vector<float> s = {0.25f, 0.25f, 0.25f, 0.25f, /**/ 0.1f, 0.4f,
                                0.4f,  0.1f,  0.3f,  0.2f,  0.3f,      0.2f};
  V32 idx(9, -1);
  be().routing<float>().topk_choices(s.data(), 3, 4, 3, nullptr, idx.data());
  EXPECT_EQ(idx, (V32{0, 1, 0, /**/ 1, 2, 2, /**/ 2, 0, 1}));
}

TEST_P(RoutingBackendTest, TopkRanksNanLast) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> s = {nan, 0.2f, 0.5f, -nan, /**/ -0.f, 0.f, -1.f, nan};
  V32 idx(6, -1);
  be().routing<float>().topk_choices(s.data(), 2, 4, 3, nullptr, idx.data());
  EXPECT_EQ(idx, (V32{2, 0, /**/ 1, 1, /**/ 0, 2}));  // -0 == +0: tie to the lower index
}

TEST_P(RoutingBackendTest, SelectionBiasChangesTheChoice) {
  const std::vector<double> s = {0.5, 0.3, 0.2, /**/ 0.1, 0.2, 0.7};
  V32 idx(4, -1);
  be().routing<double>().topk_choices(s.data(), 2, 3, 2, nullptr, idx.data());
  EXPECT_EQ(idx, (V32{0, 2, 1, 1}));
  const float bias[3] = {0.f, 0.3f, 0.f};  // expert 1: 0.6 > 0.5 for token 0
  be().routing<double>().topk_choices(s.data(), 2, 3, 2, bias, idx.data());
  EXPECT_EQ(idx, (V32{1, 2, 0, 1}));
  const float push_down[3] = {0.f, 0.f, -0.65f};  // expert 2: 0.05 for token 1
  be().routing<double>().topk_choices(s.data(), 2, 3, 2, push_down, idx.data());
  EXPECT_EQ(idx, (V32{0, 1, 1, 0}));
}

template <typename T>
void check_topk_random(const Backend& be) {
  std::mt19937 rng(11);
  for (int64_t E : {1, 2, 7, 64}) {
    for (int64_t k :
         {int64_t{1}, int64_t{2}, std::min<int64_t>(4, E), std::min<int64_t>(12, E), E}) {
      if (k > E) continue;
      const int64_t N = 301;
      auto scores = random_vector<T>(static_cast<size_t>(N * E), rng, 0.0, 1.0);
      // Some exact ties.
      for (int64_t n = 0; n < N; n += 3) scores[n * E + (E - 1)] = scores[n * E];
      const auto bias = random_vector<float>(static_cast<size_t>(E), rng, -0.1, 0.1);
      for (const float* b : {static_cast<const float*>(nullptr), bias.data()}) {
        V32 idx(static_cast<size_t>(k * N), -1);
        be.routing<T>().topk_choices(scores.data(), N, E, k, b, idx.data());
        EXPECT_EQ(idx, ref::topk(scores, N, E, k, b))
            << type_name<T>() << " E=" << E << " k=" << k << " bias=" << (b != nullptr);
      }
    }
  }
}

TEST_P(RoutingBackendTest, TopkMatchesReference) {
  check_topk_random<float>(be());
  check_topk_random<double>(be());
}

TEST_P(RoutingBackendTest, SlotLocationsMatchReference) {
  std::mt19937 rng(5);
  for (int64_t N : {1, 2, 57, 400}) {
    for (int64_t E : {1, 3, 16}) {
      for (int64_t k : {1, 2, 3}) {
        if (k > E) continue;
        const auto scores = random_vector<double>(static_cast<size_t>(N * E), rng, 0.0, 1.0);
        const V32 idx = ref::topk(scores, N, E, k);
        V64 order(static_cast<size_t>(N));
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        for (const V64* o : {static_cast<const V64*>(nullptr), static_cast<const V64*>(&order)}) {
          const ref::Slots want = ref::slot_locations(idx, N, E, k, o);
          V32 loc(static_cast<size_t>(k * N), -1);
          V64 counts(static_cast<size_t>(k * E), -1);
          be().slot_locations(idx.data(), N, E, k, o ? o->data() : nullptr, loc.data(),
                              counts.data());
          EXPECT_EQ(loc, want.loc) << "N=" << N << " E=" << E << " k=" << k;
          EXPECT_EQ(counts, want.counts) << "N=" << N << " E=" << E << " k=" << k;
        }
      }
    }
  }
}

// Large enough for the block-parallel path, for several thread counts.
TEST_P(RoutingBackendTest, SlotLocationsLargeMatchesCountingReference) {
  std::mt19937 rng(9);
  const int64_t N = 50000, E = 64, k = 4;
  std::uniform_int_distribution<int32_t> expert(0, static_cast<int32_t>(E - 1));
  V32 idx(static_cast<size_t>(k * N));
  for (auto& e : idx) e = expert(rng);  // distinctness per token is not needed here
  V64 order(static_cast<size_t>(N));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (int threads : {1, 2, 3, 8}) {
    be().set_threads(threads);
    for (const V64* o : {static_cast<const V64*>(nullptr), static_cast<const V64*>(&order)}) {
      const ref::Slots want = ref::slot_locations_counting(idx, N, E, k, o);
      V32 loc(static_cast<size_t>(k * N), -1);
      V64 counts(static_cast<size_t>(k * E), -1);
      be().slot_locations(idx.data(), N, E, k, o ? o->data() : nullptr, loc.data(), counts.data());
      EXPECT_EQ(loc, want.loc) << "threads=" << threads;
      EXPECT_EQ(counts, want.counts) << "threads=" << threads;
    }
  }
}

TEST_P(RoutingBackendTest, SlotMapMatchesReference) {
  std::mt19937 rng(3);
  const int64_t N = 3000, E = 8, k = 2;
  const auto scores = random_vector<float>(static_cast<size_t>(N * E), rng, 0.0, 1.0);
  const V32 idx = ref::topk(scores, N, E, k);
  const ref::Slots slots = ref::slot_locations_counting(idx, N, E, k);
  for (int64_t C : {0, 1, 100, 700, 2000}) {
    V64 map(static_cast<size_t>(E * C), -7);
    be().build_slot_map(idx.data(), slots.loc.data(), N, E, k, C, map.data());
    EXPECT_EQ(map, ref::slot_map(idx, slots.loc, N, E, k, C)) << "C=" << C;
  }
}

TEST_P(RoutingBackendTest, ZeroTokens) {
  const Routed r = route(be(), std::vector<float>{}, 0, 4, 2, 1.0, true);
  EXPECT_EQ(r.counts, (V64(8, 0)));
  EXPECT_EQ(r.demand, (V64(4, 0)));
  EXPECT_EQ(r.C, 0);
  V64 map(12, -7);
  be().build_slot_map(nullptr, nullptr, 0, 4, 2, 3, map.data());
  EXPECT_EQ(map, (V64(12, -1)));
}

// capacity() and the small host helpers are backend-independent.
TEST(Capacity, PositiveFactor) {
  EXPECT_EQ(capacity(1.0, 6, 4, 1, 4, 1), 2);  // k * floor(1 * ceil(6/4))
  EXPECT_EQ(capacity(1.0, 6, 4, 2, 5, 1), 4);
  EXPECT_EQ(capacity(1.25, 4096, 64, 8, 999, 1), 640);  // 8 * floor(1.25 * 64)
  EXPECT_EQ(capacity(1.5, 10, 4, 2, 0, 1), 8);          // spe = 3: 2 * floor(4.5)
  EXPECT_EQ(capacity(0.1, 10, 4, 3, 7, 1), 0);          // floor(0.3) = 0: everything dropped
  EXPECT_EQ(capacity(2.0, 1, 8, 1, 1, 1), 2);           // spe = ceil(1/8) = 1
  EXPECT_EQ(capacity(1.0, 4097, 64, 2, 0, 1), 2 * 65);  // N not divisible by E
}

TEST(Capacity, Dropless) {
  EXPECT_EQ(capacity(0.0, 6, 4, 1, 4, 1), 4);
  EXPECT_EQ(capacity(0.0, 4096, 64, 8, 1234, 1), 1234);
  EXPECT_EQ(capacity(0.0, 0, 64, 8, 0, 1), 0);
}

TEST(Capacity, NegativeFactorCapsDemand) {
  EXPECT_EQ(capacity(-1.0, 6, 4, 1, 4, 1), 2);      // min(4, 1 * floor(1 * 2))
  EXPECT_EQ(capacity(-1.0, 6, 4, 1, 1, 1), 1);      // min(1, 2)
  EXPECT_EQ(capacity(-2.5, 10, 4, 2, 100, 1), 14);  // min(100, 2 * floor(7.5))
  EXPECT_EQ(capacity(-2.5, 10, 4, 2, 9, 1), 9);
}

TEST(Capacity, Alignment) {
  EXPECT_EQ(capacity(1.0, 6, 4, 1, 4, 4), 4);     // 2 -> 4
  EXPECT_EQ(capacity(1.5, 10, 4, 2, 0, 8), 8);    // 8 stays 8
  EXPECT_EQ(capacity(0.0, 10, 4, 2, 9, 8), 16);   // 9 -> 16
  EXPECT_EQ(capacity(-2.5, 10, 4, 2, 9, 4), 12);  // min(9, 14) = 9 -> 12
  EXPECT_EQ(capacity(0.0, 10, 4, 2, 0, 8), 0);    // 0 stays 0
  EXPECT_EQ(capacity(1.0, 6, 4, 1, 4, 0), 2);     // alignment 0 or 1: none
}

TEST(Capacity, RejectsBadArguments) {
  EXPECT_THROW(capacity(1.0, 6, 0, 1, 4, 1), std::invalid_argument);
  EXPECT_THROW(capacity(std::nan(""), 6, 4, 1, 4, 1), std::invalid_argument);
}

TEST_P(RoutingBackendTest, DemandMaxDemandAndKept) {
  const V64 counts = {4, 1, 0, 1, /**/ 1, 2, 2, 0};
  V64 demand(4), kept(4), max_demand(1, -1);
  be().demand_from_counts(counts.data(), 4, 2, demand.data(), max_demand.data());
  EXPECT_EQ(demand, (V64{5, 3, 2, 1}));
  EXPECT_EQ(max_demand[0], 5);
  be().kept_counts(demand.data(), 4, 2, kept.data());
  EXPECT_EQ(kept, (V64{2, 2, 2, 1}));
  be().kept_counts(demand.data(), 4, 0, kept.data());
  EXPECT_EQ(kept, (V64{0, 0, 0, 0}));
  // Many experts: the maximum is found across every block of a device reduction.
  const int64_t E = 1000;
  V64 wide(2 * E, 1), wide_demand(E);
  wide[2 * E - 3] = 77;  // choice 1 of expert E - 3
  be().demand_from_counts(wide.data(), E, 2, wide_demand.data(), max_demand.data());
  EXPECT_EQ(max_demand[0], 78);
  EXPECT_EQ(wide_demand[E - 3], 78);
}

TEST_P(RoutingBackendTest, TopkRejectsKAboveE) {
  const float s[2] = {0.5f, 0.5f};
  int32_t idx[3];
  EXPECT_THROW(be().routing<float>().topk_choices(s, 1, 2, 3, nullptr, idx), std::invalid_argument);
}

// The CPU checks expert indices as it goes; a device backend cannot report without a sync.
TEST(CpuRouting, SlotLocationsRejectsBadExpert) {
  const int32_t idx[2] = {0, 5};
  int32_t loc[2];
  int64_t counts[2];
  EXPECT_THROW(cpu_backend().slot_locations(idx, 2, 2, 1, nullptr, loc, counts, nullptr),
               std::out_of_range);
}

}  // namespace
}  // namespace moe::kernels::test

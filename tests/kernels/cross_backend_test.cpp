// Every backend against the CPU backend, bit for bit: the same routing (top-k, priority order,
// slots, counts, demand, slot map) and the same dispatch/combine results in every element type.
// The device kernels reproduce the CPU's order of summation, so nothing here needs a tolerance.
#include <numeric>

#include "test_util.h"

namespace moe::kernels::test {
namespace {

using CrossBackendTest = BackendTest;
MOE_INSTANTIATE_FOR_BACKENDS(CrossBackendTest);

struct Case {
  int64_t N, E, k, M;
  double capacity_fraction;  // of the max demand: < 1 drops choices
  bool prioritized;
  const char* what;
};

std::vector<Case> cases() {
  return {
      {97, 6, 2, 33, 1.0, false, "N not divisible by E, odd M"},
      {64, 4, 4, 64, 1.0, true, "k = E"},
      {300, 16, 2, 24, 0.2, true, "heavy drops"},
      {40, 32, 1, 16, 1.0, false, "empty experts"},
      {1, 1, 1, 1, 1.0, false, "one token"},
      {513, 8, 3, 40, 0.7, false, "several tiles"},
      {130, 20, 12, 8, 0.5, true, "k above the insertion limit"},
  };
}

struct Routing {
  std::vector<int32_t> idx, loc;
  std::vector<int64_t> order, counts, demand, max_demand, kept, map;
  int64_t C = 0;
};

// Scores with ties (a coarse grid) so that tie-breaking is exercised.
template <typename T>
Routing route(const Backend& be, const Case& c, std::mt19937& rng) {
  std::uniform_int_distribution<int> grid(0, 7);
  std::vector<T> scores(static_cast<size_t>(c.N * c.E));
  for (auto& s : scores) s = static_cast<T>(grid(rng)) / T(8);
  std::vector<float> bias(static_cast<size_t>(c.E));
  for (auto& b : bias) b = static_cast<float>(grid(rng)) / 64.f;
  Routing r;
  r.idx.assign(static_cast<size_t>(c.k * c.N), -7);
  be.routing<T>().topk_choices(scores.data(), c.N, c.E, c.k, bias.data(), r.idx.data());
  r.order.assign(static_cast<size_t>(c.N), -7);
  if (c.prioritized) {
    std::vector<T> top1(static_cast<size_t>(c.N));
    for (int64_t n = 0; n < c.N; ++n) top1[n] = scores[n * c.E + r.idx[n]];
    be.routing<T>().priority_order(top1.data(), c.N, r.order.data());
  }
  r.loc.assign(static_cast<size_t>(c.k * c.N), -7);
  r.counts.assign(static_cast<size_t>(c.k * c.E), -7);
  be.slot_locations(r.idx.data(), c.N, c.E, c.k, c.prioritized ? r.order.data() : nullptr,
                    r.loc.data(), r.counts.data());
  r.demand.assign(static_cast<size_t>(c.E), -7);
  r.max_demand.assign(1, -7);
  be.demand_from_counts(r.counts.data(), c.E, c.k, r.demand.data(), r.max_demand.data());
  r.C = static_cast<int64_t>(c.capacity_fraction * static_cast<double>(r.max_demand[0]));
  r.kept.assign(static_cast<size_t>(c.E), -7);
  be.kept_counts(r.demand.data(), c.E, r.C, r.kept.data());
  r.map.assign(static_cast<size_t>(c.E * r.C), -7);
  be.build_slot_map(r.idx.data(), r.loc.data(), c.N, c.E, c.k, r.C, r.map.data());
  return r;
}

template <typename T>
void expect_same_routing(const Backend& be, uint32_t seed) {
  for (const Case& c : cases()) {
    std::mt19937 rng_cpu(seed), rng_be(seed);
    const Routing want = route<T>(backend("cpu"), c, rng_cpu);
    const Routing got = route<T>(be, c, rng_be);
    const std::string what = std::string(c.what) + " " + type_name<T>();
    EXPECT_EQ(got.idx, want.idx) << what;
    if (c.prioritized) {
      EXPECT_EQ(got.order, want.order) << what;
    }
    EXPECT_EQ(got.loc, want.loc) << what;
    EXPECT_EQ(got.counts, want.counts) << what;
    EXPECT_EQ(got.demand, want.demand) << what;
    EXPECT_EQ(got.max_demand, want.max_demand) << what;
    EXPECT_EQ(got.kept, want.kept) << what;
    EXPECT_EQ(got.map, want.map) << what;
  }
}

TEST_P(CrossBackendTest, RoutingSameAsCpu) {
  expect_same_routing<float>(be(), 11);
  expect_same_routing<double>(be(), 12);
}

// Random inputs of one case and the four ops' results on `be`.
template <typename T>
DispatchResults<T> run_dispatch(const Backend& be, const Case& c, const Routing& r, bool gated,
                                std::mt19937& rng) {
  const RoutingView v{r.idx.data(), r.loc.data(), r.map.data(), c.N, c.E, c.k, r.C};
  const size_t nm = static_cast<size_t>(c.N * c.M), ecm = static_cast<size_t>(c.E * r.C * c.M),
               kn = static_cast<size_t>(c.k * c.N);
  const auto x = random_vector<T>(nm, rng), Y = random_vector<T>(ecm, rng),
             gout = random_vector<T>(nm, rng), gD = random_vector<T>(ecm, rng),
             g = random_vector<T>(kn, rng, -1.0, 1.0);
  return run_dispatch_ops(be, v, x, Y, gD, gout, gated ? g.data() : nullptr, c.M);
}

template <typename T>
void expect_same_dispatch(const Backend& be) {
  std::mt19937 rng_routing(5);
  for (const Case& c : cases()) {
    const Routing r = route<float>(backend("cpu"), c, rng_routing);
    for (bool gated : {true, false}) {
      std::mt19937 rng_cpu(9), rng_be(9);
      const auto want = run_dispatch<T>(backend("cpu"), c, r, gated, rng_cpu);
      const auto got = run_dispatch<T>(be, c, r, gated, rng_be);
      const std::string what = std::string(c.what) + " " + type_name<T>() +
                               (gated ? " gated" : " unweighted") + " M=" + std::to_string(c.M);
      expect_same_bits(got, want, what);
    }
  }
}

TEST_P(CrossBackendTest, DispatchSameBitsAsCpuFloat) {
  expect_same_dispatch<float>(be());
}
TEST_P(CrossBackendTest, DispatchSameBitsAsCpuDouble) {
  expect_same_dispatch<double>(be());
}
TEST_P(CrossBackendTest, DispatchSameBitsAsCpuFloat16) {
  expect_same_dispatch<float16>(be());
}
TEST_P(CrossBackendTest, DispatchSameBitsAsCpuBFloat16) {
  expect_same_dispatch<bfloat16>(be());
}

}  // namespace
}  // namespace moe::kernels::test

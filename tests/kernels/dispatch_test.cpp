// Dispatch / combine (docs/ROUTING.md, "Dispatch, experts, combine") forward and backward on every
// backend, against the naive reference (float, double, float16, bfloat16), finite differences
// (double), thread-count determinism, edge cases.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "test_util.h"

namespace moe::kernels::test {
namespace {

using DispatchBackendTest = BackendTest;
MOE_INSTANTIATE_FOR_BACKENDS(DispatchBackendTest);

struct Shape {
  int64_t N, E, k, M;
  double capacity_fraction;  // C = round(fraction * max demand): < 1 drops choices
  bool prioritized;
};

// Random routing built with the reference (so dispatch tests do not depend on routing kernels).
ref::Routing make_routing(const Shape& s, std::mt19937& rng) {
  ref::Routing r{s.N, s.E, s.k, 0, {}, {}, {}};
  const auto scores = random_vector<double>(static_cast<size_t>(s.N * s.E), rng, 0.0, 1.0);
  r.idx = ref::topk(scores, s.N, s.E, s.k);
  std::vector<int64_t> order(static_cast<size_t>(s.N));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  const ref::Slots slots =
      ref::slot_locations_counting(r.idx, s.N, s.E, s.k, s.prioritized ? &order : nullptr);
  r.loc = slots.loc;
  int64_t max_demand = 0;
  for (int64_t e = 0; e < s.E; ++e) {
    int64_t d = 0;
    for (int64_t j = 0; j < s.k; ++j) d += slots.counts[j * s.E + e];
    max_demand = std::max(max_demand, d);
  }
  r.C = static_cast<int64_t>(std::lround(s.capacity_fraction * static_cast<double>(max_demand)));
  r.map = ref::slot_map(r.idx, r.loc, s.N, s.E, s.k, r.C);
  return r;
}

RoutingView view(const ref::Routing& r) {
  return RoutingView{r.idx.data(), r.loc.data(), r.map.data(), r.N, r.E, r.k, r.C};
}

std::vector<Shape> shapes() {
  std::vector<Shape> all = {
      {1, 1, 1, 1, 1.0, false},
      {5, 3, 2, 7, 1.0, false},
      {64, 8, 2, 600, 0.5, false},
      {64, 8, 2, 1100, 1.0, true},
      {300, 16, 4, 16, 0.3, true},
      // N = 49: j * N / N rounds below j in double, exercising the token-of-choice correction.
      {49, 4, 3, 9, 1.0, false},
  };
  for (int64_t k = 1; k <= 4; ++k) {
    for (double f : {0.0, 0.6, 1.0, 1.5}) all.push_back({97, 6, k, 33, f, k % 2 == 0});
  }
  return all;
}

std::string describe(const Shape& s, const ref::Routing& r, bool gated) {
  std::ostringstream o;
  o << "N=" << s.N << " E=" << s.E << " k=" << s.k << " M=" << s.M << " C=" << r.C
    << " gated=" << gated;
  return o.str();
}

template <typename T>
void check_against_reference(const Backend& be) {
  using Tol = Tolerance<T>;
  const auto& ops = be.ops<T>();
  std::mt19937 rng(1234);
  for (const Shape& s : shapes()) {
    const ref::Routing r = make_routing(s, rng);
    const RoutingView v = view(r);
    const size_t nm = static_cast<size_t>(s.N * s.M), ecm = static_cast<size_t>(s.E * r.C * s.M),
                 kn = static_cast<size_t>(s.k * s.N);
    const auto x = random_vector<T>(nm, rng);
    const auto Y = random_vector<T>(ecm, rng);
    const auto gout = random_vector<T>(nm, rng);
    const auto gD = random_vector<T>(ecm, rng);
    const auto g = random_vector<T>(kn, rng, 0.05, 1.0);
    const double dot_atol = Tol::dot_atol_per_elem * static_cast<double>(s.M);
    for (bool gated : {true, false}) {
      const T* gates = gated ? g.data() : nullptr;
      const std::string what = std::string(type_name<T>()) + " " + describe(s, r, gated);

      std::vector<T> D(ecm, poison<T>());
      ops.dispatch_forward(v, x.data(), gates, s.M, D.data());
      expect_close(D, ref::dispatch_forward(r, x, gates, s.M), Tol::rtol, 0, what + " dispatch");

      std::vector<T> out(nm, poison<T>());
      ops.combine_forward(v, Y.data(), gates, s.M, out.data());
      expect_close(out, ref::combine_forward(r, Y, gates, s.M), Tol::rtol, 0, what + " combine");

      const auto want_db = ref::dispatch_backward(r, gD, x, gates, s.M);
      std::vector<T> gx(nm, poison<T>()), gg(kn, poison<T>());
      ops.dispatch_backward(v, gD.data(), x.data(), gates, s.M, gx.data(), gg.data());
      expect_close(gx, want_db.data, Tol::rtol, 0, what + " dispatch_backward grad_x");
      expect_close(gg, want_db.gates, Tol::rtol, dot_atol, what + " dispatch_backward grad_gates");

      const auto want_cb = ref::combine_backward(r, gout, Y, gates, s.M);
      std::vector<T> gY(ecm, poison<T>()), gg2(kn, poison<T>());
      ops.combine_backward(v, gout.data(), Y.data(), gates, s.M, gY.data(), gg2.data());
      expect_close(gY, want_cb.data, Tol::rtol, 0, what + " combine_backward grad_buffer");
      expect_close(gg2, want_cb.gates, Tol::rtol, dot_atol, what + " combine_backward grad_gates");

      // Each backward output alone (the other one null).
      std::vector<T> gx_only(nm, poison<T>()), gg_only(kn, poison<T>());
      ops.dispatch_backward(v, gD.data(), x.data(), gates, s.M, gx_only.data(), nullptr);
      ops.dispatch_backward(v, gD.data(), x.data(), gates, s.M, nullptr, gg_only.data());
      EXPECT_TRUE(same_bits(gx_only, gx)) << what;
      EXPECT_TRUE(same_bits(gg_only, gg)) << what;
      std::vector<T> gY_only(ecm, poison<T>()), gg2_only(kn, poison<T>());
      ops.combine_backward(v, gout.data(), Y.data(), gates, s.M, gY_only.data(), nullptr);
      ops.combine_backward(v, gout.data(), Y.data(), gates, s.M, nullptr, gg2_only.data());
      EXPECT_TRUE(same_bits(gY_only, gY)) << what;
      EXPECT_TRUE(same_bits(gg2_only, gg2)) << what;
    }
  }
}

TEST_P(DispatchBackendTest, MatchesReferenceFloat) {
  check_against_reference<float>(be());
}
TEST_P(DispatchBackendTest, MatchesReferenceDouble) {
  check_against_reference<double>(be());
}
TEST_P(DispatchBackendTest, MatchesReferenceBFloat16) {
  check_against_reference<bfloat16>(be());
}
TEST_P(DispatchBackendTest, MatchesReferenceFloat16) {
  check_against_reference<float16>(be());
}

// The worked example end to end at kernel level: with k = 1 and C = 2, tokens 3 and 5 are
// dropped and get a zero output; the others come back scaled by g twice (dispatch, combine).
TEST_P(DispatchBackendTest, WorkedExampleDropsTokensThreeAndFive) {
  const int64_t N = 6, E = 4, k = 1, C = 2, M = 3;
  const std::vector<int32_t> idx = {0, 0, 1, 0, 3, 0}, loc = {0, 1, 0, 2, 0, 3};
  std::vector<int64_t> map(E * C, -7);
  be().build_slot_map(idx.data(), loc.data(), N, E, k, C, map.data());
  const RoutingView v{idx.data(), loc.data(), map.data(), N, E, k, C};
  const std::vector<float> g = {0.5f, 0.25f, 2.f, 4.f, 1.f, 8.f};
  std::vector<float> x(N * M);
  for (int64_t i = 0; i < N * M; ++i) x[i] = static_cast<float>(i + 1);
  std::vector<float> D(E * C * M, -1.f), out(N * M, -1.f);
  be().f32.dispatch_forward(v, x.data(), g.data(), M, D.data());
  const std::vector<float> want_D = {0.5f,
                                     1.f,
                                     1.5f,
                                     1.f,
                                     1.25f,
                                     1.5f,
                                     /* expert 1 */ 14.f,
                                     16.f,
                                     18.f,
                                     0.f,
                                     0.f,
                                     0.f,
                                     /* expert 2 */ 0.f,
                                     0.f,
                                     0.f,
                                     0.f,
                                     0.f,
                                     0.f,
                                     /* expert 3 */ 13.f,
                                     14.f,
                                     15.f,
                                     0.f,
                                     0.f,
                                     0.f};
  EXPECT_EQ(D, want_D);
  be().f32.combine_forward(v, D.data(), g.data(), M, out.data());
  const std::vector<float> want_out = {0.25f, 0.5f, 0.75f, 0.25f, 0.3125f, 0.375f, 28.f, 32.f, 36.f,
                                       0.f,   0.f,  0.f,   13.f,  14.f,    15.f,   0.f,  0.f,  0.f};
  EXPECT_EQ(out, want_out);
}

// Finite differences in double. Both kernels are bilinear in (data, gates), so the loss
// L = <R, kernel(data, gates)> has exact central differences up to rounding.
double inner(const std::vector<double>& a, const std::vector<double>& b) {
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}

template <typename Loss>
void expect_fd_gradient(const std::vector<double>& analytic, std::vector<double>& param, Loss loss,
                        const std::string& what) {
  const double h = 1e-4;
  for (size_t i = 0; i < param.size(); ++i) {
    const double saved = param[i];
    param[i] = saved + h;
    const double up = loss();
    param[i] = saved - h;
    const double down = loss();
    param[i] = saved;
    const double fd = (up - down) / (2 * h);
    EXPECT_NEAR(analytic[i], fd, 1e-8 * (1 + std::fabs(fd))) << what << " [" << i << "]";
  }
}

TEST_P(DispatchBackendTest, BackwardMatchesFiniteDifferences) {
  const auto& ops = be().f64;
  std::mt19937 rng(77);
  for (const Shape& s : {Shape{9, 3, 2, 5, 0.7, false}, Shape{8, 4, 3, 4, 0.5, true},
                         Shape{6, 2, 1, 3, 1.0, false}}) {
    const ref::Routing r = make_routing(s, rng);
    const RoutingView v = view(r);
    const size_t nm = static_cast<size_t>(s.N * s.M), ecm = static_cast<size_t>(s.E * r.C * s.M),
                 kn = static_cast<size_t>(s.k * s.N);
    auto x = random_vector<double>(nm, rng);
    auto Y = random_vector<double>(ecm, rng);
    auto g = random_vector<double>(kn, rng, 0.1, 1.0);
    const auto R_D = random_vector<double>(ecm, rng);
    const auto R_out = random_vector<double>(nm, rng);
    const std::string what = describe(s, r, true);

    // Dispatch: L = <R_D, dispatch(x, g)>.
    auto dispatch_loss = [&] {
      std::vector<double> D(ecm);
      ops.dispatch_forward(v, x.data(), g.data(), s.M, D.data());
      return inner(R_D, D);
    };
    std::vector<double> gx(nm), gg(kn);
    ops.dispatch_backward(v, R_D.data(), x.data(), g.data(), s.M, gx.data(), gg.data());
    expect_fd_gradient(gx, x, dispatch_loss, what + " dispatch d/dx");
    expect_fd_gradient(gg, g, dispatch_loss, what + " dispatch d/dgates");

    // Combine: L = <R_out, combine(Y, g)>.
    auto combine_loss = [&] {
      std::vector<double> out(nm);
      ops.combine_forward(v, Y.data(), g.data(), s.M, out.data());
      return inner(R_out, out);
    };
    std::vector<double> gY(ecm), gg2(kn);
    ops.combine_backward(v, R_out.data(), Y.data(), g.data(), s.M, gY.data(), gg2.data());
    expect_fd_gradient(gY, Y, combine_loss, what + " combine d/dY");
    expect_fd_gradient(gg2, g, combine_loss, what + " combine d/dgates");

    // Dropped choices get no gate gradient at all.
    for (size_t c = 0; c < kn; ++c) {
      if (!r.kept(static_cast<int64_t>(c))) {
        EXPECT_EQ(gg[c], 0.0) << what;
        EXPECT_EQ(gg2[c], 0.0) << what;
      }
    }
  }
}

// Every kernel gives the same bits with 1, 2 and 3 threads (outputs are partitioned, never
// reduced across threads).
template <typename T>
void check_thread_determinism(const Backend& be) {
  std::mt19937 rng(4242);
  const Shape s{20000, 16, 4, 64, 0.8, true};
  const ref::Routing r = make_routing(s, rng);
  const RoutingView v = view(r);
  const size_t nm = static_cast<size_t>(s.N * s.M), ecm = static_cast<size_t>(s.E * r.C * s.M),
               kn = static_cast<size_t>(s.k * s.N);
  const auto x = random_vector<T>(nm, rng);
  const auto Y = random_vector<T>(ecm, rng);
  const auto g = random_vector<T>(kn, rng, 0.05, 1.0);
  const auto scores = random_vector<float>(static_cast<size_t>(s.N * s.E), rng, 0.0, 1.0);

  struct Outputs {
    std::vector<int32_t> idx, loc;
    std::vector<int64_t> counts, map;
    DispatchResults<T> dispatch;
  };
  auto run = [&](int threads) {
    be.set_threads(threads);
    Outputs o;
    o.idx.resize(kn);
    be.routing<float>().topk_choices(scores.data(), s.N, s.E, s.k, nullptr, o.idx.data());
    o.loc.resize(kn);
    o.counts.resize(static_cast<size_t>(s.k * s.E));
    be.slot_locations(o.idx.data(), s.N, s.E, s.k, nullptr, o.loc.data(), o.counts.data());
    o.map.resize(static_cast<size_t>(s.E * r.C));
    be.build_slot_map(o.idx.data(), o.loc.data(), s.N, s.E, s.k, r.C, o.map.data());
    o.dispatch = run_dispatch_ops(be, v, x, Y, Y, x, g.data(), s.M);
    return o;
  };
  const Outputs one = run(1);
  for (int threads : {2, 3}) {
    const Outputs many = run(threads);
    const std::string what = std::string(type_name<T>()) + " threads=" + std::to_string(threads);
    EXPECT_TRUE(same_bits(one.idx, many.idx)) << what << " topk";
    EXPECT_TRUE(same_bits(one.loc, many.loc)) << what << " loc";
    EXPECT_TRUE(same_bits(one.counts, many.counts)) << what << " counts";
    EXPECT_TRUE(same_bits(one.map, many.map)) << what << " slot_map";
    expect_same_bits(many.dispatch, one.dispatch, what);
  }
}

TEST_P(DispatchBackendTest, SameBitsForAnyThreadCount) {
  check_thread_determinism<float>(be());
  check_thread_determinism<bfloat16>(be());
}

// N = 0: [E, C, M] outputs are all zero (every slot unused), [N, M] / [k, N] ones are empty.
template <typename T>
void check_zero_tokens(const Backend& be) {
  const auto& ops = be.ops<T>();
  const int64_t E = 3, C = 2, M = 5, k = 2;
  const std::vector<int64_t> map(E * C, -1);
  const RoutingView v{nullptr, nullptr, map.data(), 0, E, k, C};
  const std::vector<T> zeros(E * C * M, from_double<T>(0.0));
  std::vector<T> D(E * C * M, poison<T>());
  ops.dispatch_forward(v, nullptr, nullptr, M, D.data());
  EXPECT_TRUE(same_bits(D, zeros)) << type_name<T>();
  std::vector<T> gY(E * C * M, poison<T>());
  ops.combine_backward(v, nullptr, D.data(), nullptr, M, gY.data(), nullptr);
  EXPECT_TRUE(same_bits(gY, zeros)) << type_name<T>();
  ops.combine_forward(v, D.data(), nullptr, M, nullptr);
  ops.dispatch_backward(v, D.data(), nullptr, nullptr, M, nullptr, nullptr);
}

TEST_P(DispatchBackendTest, ZeroTokens) {
  check_zero_tokens<float>(be());
  check_zero_tokens<double>(be());
  check_zero_tokens<bfloat16>(be());
  check_zero_tokens<float16>(be());
}

// C = 0: everything is dropped; outputs are zero and nothing reads the (empty) buffer.
TEST_P(DispatchBackendTest, ZeroCapacity) {
  const int64_t N = 4, E = 2, k = 2, M = 3;
  const std::vector<int32_t> idx = {0, 1, 0, 1, 1, 0, 1, 0}, loc = {0, 0, 1, 1, 2, 2, 3, 3};
  const RoutingView v{idx.data(), loc.data(), nullptr, N, E, k, 0};
  std::vector<float> x(N * M, 1.f), g(k * N, 0.5f), out(N * M, -1.f), gx(N * M, -1.f),
      gg(k * N, -1.f);
  be().f32.dispatch_forward(v, x.data(), g.data(), M, nullptr);
  be().f32.combine_forward(v, nullptr, g.data(), M, out.data());
  EXPECT_EQ(out, std::vector<float>(N * M, 0.f));
  be().f32.dispatch_backward(v, nullptr, x.data(), g.data(), M, gx.data(), gg.data());
  EXPECT_EQ(gx, std::vector<float>(N * M, 0.f));
  EXPECT_EQ(gg, std::vector<float>(k * N, 0.f));
  std::fill(gg.begin(), gg.end(), -1.f);
  be().f32.combine_backward(v, x.data(), nullptr, g.data(), M, nullptr, gg.data());
  EXPECT_EQ(gg, std::vector<float>(k * N, 0.f));
}

}  // namespace
}  // namespace moe::kernels::test

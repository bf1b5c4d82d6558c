#pragma once
// Shared helpers of the kernel tests: the backend-parametrised fixture, random data, comparisons.
#include <gtest/gtest.h>
#include <moe_kernels/types.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backend.h"
#include "reference.h"

namespace moe::kernels::test {

// A suite run once per kernel backend; restores the default thread count afterwards.
class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Backend& be() const { return backend(GetParam()); }
  void TearDown() override { be().set_threads(0); }
};

// A backend's name as a test name: letters, digits and '_' only.
inline std::string test_name(std::string name) {
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

#define MOE_INSTANTIATE_FOR_BACKENDS(Suite)                                        \
  INSTANTIATE_TEST_SUITE_P(                                                        \
      Backends, Suite, ::testing::ValuesIn(::moe::kernels::test::backend_names()), \
      [](const ::testing::TestParamInfo<std::string>& info) { return test_name(info.param); })

template <typename T>
const char* type_name();
template <>
inline const char* type_name<float>() {
  return "float";
}
template <>
inline const char* type_name<double>() {
  return "double";
}
template <>
inline const char* type_name<bfloat16>() {
  return "bfloat16";
}
template <>
inline const char* type_name<float16>() {
  return "float16";
}

template <typename T>
T from_double(double v) {
  return ref::store<T>(static_cast<acc_t<T>>(v));
}

template <typename T>
std::vector<T> random_vector(size_t n, std::mt19937& rng, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& e : v) e = from_double<T>(dist(rng));
  return v;
}

// A value no kernel would write: outputs are pre-filled with it to catch unwritten elements.
template <typename T>
T poison() {
  return from_double<T>(std::numeric_limits<double>::quiet_NaN());
}

// Bitwise equality (NaN payloads, signed zeros and all).
template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Element-wise |got - want| <= rtol * |want| + atol, reporting the first few mismatches.
template <typename T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, double rtol, double atol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  size_t bad = 0;
  std::ostringstream first;
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = ref::load(got[i]), w = ref::load(want[i]);
    if (!(std::fabs(g - w) <= rtol * std::fabs(w) + atol)) {
      if (bad < 5) first << "  [" << i << "] got " << g << " want " << w << "\n";
      ++bad;
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << got.size() << " elements differ\n"
                     << first.str();
}

// Tolerances of a kernel result against the reference. Sums over choices run in the same order
// as the reference; dot products use partial sums, so they get M-proportional slack.
template <typename T>
struct Tolerance;
template <>
struct Tolerance<float> {
  static constexpr double rtol = 1e-6, dot_atol_per_elem = 1e-6;
};
template <>
struct Tolerance<double> {
  static constexpr double rtol = 1e-14, dot_atol_per_elem = 1e-14;
};
template <>
struct Tolerance<bfloat16> {
  static constexpr double rtol = 1.0 / 128, dot_atol_per_elem = 1e-6;
};
template <>
struct Tolerance<float16> {
  static constexpr double rtol = 1.0 / 1024, dot_atol_per_elem = 1e-6;
};

// The four dispatch/combine results of one backend; outputs start as poison.
template <typename T>
struct DispatchResults {
  std::vector<T> D, out, gx, gg, gY, gg2;
};

// Runs dispatch and combine forward and backward on `be` (grad_D [E, C, M], grad_out [N, M]).
template <typename T>
DispatchResults<T> run_dispatch_ops(const Backend& be, const RoutingView& v,
                                    const std::vector<T>& x, const std::vector<T>& Y,
                                    const std::vector<T>& grad_D, const std::vector<T>& grad_out,
                                    const T* gates, int64_t M) {
  const size_t nm = x.size(), ecm = Y.size(), kn = static_cast<size_t>(v.k * v.N);
  DispatchResults<T> o{std::vector<T>(ecm, poison<T>()), std::vector<T>(nm, poison<T>()),
                       std::vector<T>(nm, poison<T>()),  std::vector<T>(kn, poison<T>()),
                       std::vector<T>(ecm, poison<T>()), std::vector<T>(kn, poison<T>())};
  const auto& ops = be.ops<T>();
  ops.dispatch_forward(v, x.data(), gates, M, o.D.data());
  ops.combine_forward(v, Y.data(), gates, M, o.out.data());
  ops.dispatch_backward(v, grad_D.data(), x.data(), gates, M, o.gx.data(), o.gg.data());
  ops.combine_backward(v, grad_out.data(), Y.data(), gates, M, o.gY.data(), o.gg2.data());
  return o;
}

template <typename T>
void expect_same_bits(const DispatchResults<T>& got, const DispatchResults<T>& want,
                      const std::string& what) {
  EXPECT_TRUE(same_bits(got.D, want.D)) << what << " dispatch_forward";
  EXPECT_TRUE(same_bits(got.out, want.out)) << what << " combine_forward";
  EXPECT_TRUE(same_bits(got.gx, want.gx)) << what << " dispatch_backward grad_x";
  EXPECT_TRUE(same_bits(got.gg, want.gg)) << what << " dispatch_backward grad_gates";
  EXPECT_TRUE(same_bits(got.gY, want.gY)) << what << " combine_backward grad_buffer";
  EXPECT_TRUE(same_bits(got.gg2, want.gg2)) << what << " combine_backward grad_gates";
}

}  // namespace moe::kernels::test

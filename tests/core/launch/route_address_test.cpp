// The local address a rank gives Gloo: the kernel's source address for the route to rank 0.
// (Across hosts with their own addresses: tests/e2e/hosts/multi_host_e2e_test.cpp.)
#include <gtest/gtest.h>

#include "launch/route_address.h"

namespace moe::launch {
namespace {

TEST(RouteAddress, LoopbackIsReachedFromLoopback) {
  const RouteAddress r = local_address_towards("127.0.0.1");
  EXPECT_EQ(r.address, "127.0.0.1") << r.problem;
  EXPECT_EQ(local_address_towards("127.0.0.5").address, "127.0.0.1");
}

TEST(RouteAddress, ANameIsResolvedFirst) {
  const RouteAddress r = local_address_towards("localhost");
  EXPECT_TRUE(r.address == "127.0.0.1" || r.address == "::1") << r.address << r.problem;
}

TEST(RouteAddress, AnUnknownHostIsNamedInTheProblem) {
  const RouteAddress r = local_address_towards("no-such-host.invalid");
  EXPECT_TRUE(r.address.empty());
  EXPECT_NE(r.problem.find("cannot resolve no-such-host.invalid"), std::string::npos) << r.problem;
}

}  // namespace
}  // namespace moe::launch

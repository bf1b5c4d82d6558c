// Slurm's compressed host lists and task counts per node.
#include <gtest/gtest.h>

#include <stdexcept>

#include "launch/slurm_lists.h"

namespace moe::launch {
namespace {

using Hosts = std::vector<std::string>;

TEST(SlurmHostlist, PlainNamesAndCommas) {
  EXPECT_EQ(expand_hostlist("a"), Hosts{"a"});
  EXPECT_EQ(expand_hostlist("a,b"), (Hosts{"a", "b"}));
  EXPECT_EQ(expand_hostlist("login-1.cluster"), Hosts{"login-1.cluster"});
}

TEST(SlurmHostlist, RangesKeepTheirZeroPadding) {
  EXPECT_EQ(expand_hostlist("node[01-04,07],gpu5"),
            (Hosts{"node01", "node02", "node03", "node04", "node07", "gpu5"}));
  EXPECT_EQ(expand_hostlist("n[008-011]"), (Hosts{"n008", "n009", "n010", "n011"}));
  EXPECT_EQ(expand_hostlist("n[9-11]"), (Hosts{"n9", "n10", "n11"}));
  EXPECT_EQ(expand_hostlist("n[3]-ib"), Hosts{"n3-ib"});
}

TEST(SlurmHostlist, SeveralGroupsExpandToEveryCombination) {
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2],x"), (Hosts{"r1n1", "r1n2", "r2n1", "r2n2", "x"}));
}

TEST(SlurmHostlist, MalformedListsSayWhy) {
  for (const char* bad : {"", "a,,b", "n[1-2", "n1-2]", "n[[1]]", "n[]", "n[2-1]", "n[a-b]",
                          "n[1,]", "n[0-99999999]"})
    EXPECT_THROW(expand_hostlist(bad), std::invalid_argument) << bad;
  try {
    expand_hostlist("n[4-2]");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "range '4-2' runs backwards");
  }
}

TEST(SlurmTasksPerNode, CountsAndRepeats) {
  using Counts = std::vector<int64_t>;
  EXPECT_EQ(expand_tasks_per_node("4"), Counts{4});
  EXPECT_EQ(expand_tasks_per_node("4(x2)"), (Counts{4, 4}));
  EXPECT_EQ(expand_tasks_per_node("2,1"), (Counts{2, 1}));
  EXPECT_EQ(expand_tasks_per_node("2(x3),1"), (Counts{2, 2, 2, 1}));
  for (const char* bad : {"", "x", "4(x2", "4(2)", "-1", "4(x)"})
    EXPECT_THROW(expand_tasks_per_node(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace moe::launch

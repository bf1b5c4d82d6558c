#include "train/rank_figures.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstring>

namespace moe::train {

namespace {
constexpr int64_t kHostBytes = 128;
}

std::vector<std::string> gather_hosts(dist::ProcessGroup& group, const std::string& host) {
  auto mine = at::zeros({kHostBytes}, at::kByte);
  std::memcpy(mine.data_ptr(), host.data(), std::min<size_t>(host.size(), kHostBytes - 1));
  auto all = group.all_gather(mine);
  std::vector<std::string> hosts;
  for (int64_t q = 0; q < group.world_size(); ++q) {
    hosts.emplace_back(static_cast<const char*>(all[q].data_ptr()));
  }
  return hosts;
}

int64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

protocol::RanksEvent gather_rank_figures(dist::ProcessGroup& group, int64_t step,
                                         const protocol::RankFigures& mine,
                                         const std::vector<std::string>& hosts) {
  auto figures =
      at::tensor({mine.step_ms, mine.compute_ms, mine.a2a_ms, mine.allreduce_ms,
                  static_cast<double>(mine.tokens), static_cast<double>(mine.peak_bytes)},
                 at::kDouble);
  auto all = group.all_gather(figures);
  auto a = all.accessor<double, 2>();
  protocol::RanksEvent e;
  e.step = step;
  for (int64_t q = 0; q < group.world_size(); ++q) {
    protocol::RankFigures f;
    f.rank = q;
    f.host = q < static_cast<int64_t>(hosts.size()) ? hosts[q] : "";
    f.step_ms = a[q][0];
    f.compute_ms = a[q][1];
    f.a2a_ms = a[q][2];
    f.allreduce_ms = a[q][3];
    f.tokens = static_cast<int64_t>(a[q][4]);
    f.peak_bytes = static_cast<int64_t>(a[q][5]);
    e.ranks.push_back(f);
  }
  return e;
}

}  // namespace moe::train

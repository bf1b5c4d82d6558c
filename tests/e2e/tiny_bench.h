#pragma once
// `moe-train bench` on the end-to-end tests' tiny layer: model.dim 16, moe.hidden 32, 8 tokens per
// sample, timed twice without a minimum time (quick figures for checking, not for reading).
#include <string>
#include <vector>

namespace moe::test {

// The arguments for `batch` samples per pass, then `more`.
inline std::vector<std::string> tiny_bench(int batch, const std::vector<std::string>& more) {
  std::vector<std::string> args{"bench", "--iters", "2", "--min-time", "0"};
  const std::vector<std::string> sets{"model.dim=16", "moe.hidden=32", "model.seq_len=8",
                                      "train.batch_size=" + std::to_string(batch)};
  for (const auto& set : sets) args.insert(args.end(), {"--set", set});
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace moe::test

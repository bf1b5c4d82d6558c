#include "train/rank_agreement.h"

#include <exception>

#include "runtime/error_text.h"

namespace moe::train {
namespace {

std::exception_ptr failure_of(const std::function<void()>& work, std::string& text) {
  try {
    work();
  } catch (const std::exception& e) {
    text = runtime::error_text(e);
    return std::current_exception();
  }
  return nullptr;
}

// flags: {stop signal, world - lowest failing rank (0: none)}, max-reduced over the ranks.
int agree(dist::ProcessGroup& group, int stop_signal, const std::string& during,
          const std::function<void()>& work) {
  std::string text;
  const std::exception_ptr mine = failure_of(work, text);
  if (group.is_single()) {
    if (mine) std::rethrow_exception(mine);
    return stop_signal;
  }
  auto flags = at::tensor(
      {static_cast<int64_t>(stop_signal), mine ? group.world_size() - group.rank() : int64_t{0}},
      at::kLong);
  group.all_reduce_max(flags);
  const int64_t* v = flags.data_ptr<int64_t>();
  if (v[1] == 0) return static_cast<int>(v[0]);
  const int64_t failed = group.world_size() - v[1];
  const std::string error = group.broadcast_string(text, failed);  // every rank takes part
  if (mine) std::rethrow_exception(mine);
  throw PeerFailed("rank " + std::to_string(failed) + " failed while " + during + ": " + error);
}

}  // namespace

void on_every_rank(dist::ProcessGroup& group, const std::string& during,
                   const std::function<void()>& work) {
  agree(group, 0, during, work);
}

int agree_on_stop(dist::ProcessGroup& group, int stop_signal, const std::string& during,
                  const std::function<void()>& work) {
  return agree(group, stop_signal, during, work);
}

}  // namespace moe::train

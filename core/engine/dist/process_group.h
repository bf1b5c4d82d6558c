#pragma once
// The engine's one seam over torch.distributed (c10d): rank, world, the collectives the trainer and
// the parallel MoE layer use, every one bounded by the group's time-out. Only process_group.cpp
// includes c10d headers. A world of one needs no rendezvous: every collective is then the identity.
#include <torch/torch.h>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "launch/rank_layout.h"
#include "protocol/config_enums.h"

namespace moe::dist {

// A collective failed or timed out: a rank died, stalled or disagreed. The message names the
// operation, this rank and what c10d reported.
struct CollectiveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A collective started without waiting; wait() blocks until it is done (or throws CollectiveError).
class PendingWork {
 public:
  PendingWork() = default;
  // diagnose: called when the work fails; says which rank is gone (ProcessGroup::silent_ranks).
  PendingWork(std::shared_ptr<void> work, std::string what, std::chrono::milliseconds timeout,
              std::function<std::string()> diagnose)
      : work_(std::move(work)),
        what_(std::move(what)),
        timeout_(timeout),
        diagnose_(std::move(diagnose)) {}
  void wait();

 private:
  std::shared_ptr<void> work_;  // the c10d Work, type-erased so callers need no c10d header
  std::string what_;
  std::chrono::milliseconds timeout_{0};
  std::function<std::string()> diagnose_;
};

class ProcessGroup {
 public:
  // Joins the group described by `layout` (TCPStore rendezvous at master_addr:master_port, rank 0
  // serving it). backend: parallel.backend.
  ProcessGroup(const launch::RankLayout& layout, protocol::Backend backend,
               std::chrono::milliseconds timeout);
  // Bounded: after a failed collective, c10d's objects are left to the ending process instead of
  // waiting for peers that are gone.
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int64_t rank() const { return layout_.rank; }
  int64_t world_size() const { return layout_.world_size; }
  int64_t local_rank() const { return layout_.local_rank; }
  int64_t local_world_size() const { return layout_.local_world_size; }
  bool is_single() const { return layout_.world_size == 1; }
  const std::string& backend_name() const { return backend_name_; }
  // The address this rank's Gloo transport advertises, and how it was chosen ("10.0.0.2 (the
  // route to 10.0.0.1)"); empty for a single process.
  const std::string& gloo_address() const;

  // In place over all ranks.
  void all_reduce_sum(at::Tensor& t);
  void all_reduce_max(at::Tensor& t);
  PendingWork all_reduce_sum_async(at::Tensor& t);
  // [W, ...t's shape]: every rank's t, in rank order.
  at::Tensor all_gather(const at::Tensor& t);
  // Equal splits along dim 0: chunk q of `in` goes to rank q; chunk q of the result came from q.
  at::Tensor all_to_all(const at::Tensor& in);
  PendingWork all_to_all_async(const at::Tensor& in, at::Tensor& out);
  // Uneven splits along dim 0: the next send_rows[q] rows of `in` go to rank q; `out` holds
  // recv_rows[q] rows from each rank q in rank order (sum(recv_rows) rows).
  PendingWork all_to_all_rows_async(const at::Tensor& in, at::Tensor& out,
                                    const std::vector<int64_t>& send_rows,
                                    const std::vector<int64_t>& recv_rows);
  at::Tensor all_to_all_rows(const at::Tensor& in, const std::vector<int64_t>& send_rows,
                             const std::vector<int64_t>& recv_rows);
  void broadcast(at::Tensor& t, int64_t root);
  void barrier();
  // A string from `root` to every rank (the run directory's path, decided by rank 0).
  std::string broadcast_string(const std::string& value, int64_t root);

  // Each rank's host, by rank, for the errors of silent_ranks().
  void name_hosts(std::vector<std::string> hosts);
  // After a failed collective: which ranks stopped beating (every rank bumps a counter in the
  // rendezvous store twice a second), as a sentence for the error.
  std::string silent_ranks();

  struct Impl;  // c10d's objects: defined in process_group.cpp only

 private:
  PendingWork started(std::shared_ptr<void> work, const char* op);
  launch::RankLayout layout_;
  std::string backend_name_ = "none";
  std::chrono::milliseconds timeout_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moe::dist

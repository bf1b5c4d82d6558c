#include "dist/process_group.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef MOE_ENGINE_CUDA
#include <torch/cuda.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include "launch/route_address.h"
#include "runtime/error_text.h"

namespace moe::dist {

namespace {

constexpr auto kBeatInterval = std::chrono::milliseconds(500);
// How long shutdown waits for the heartbeat thread before leaving it behind.
constexpr auto kShutdownWait = std::chrono::seconds(2);

using WorkPtr = c10::intrusive_ptr<c10d::Work>;

std::string where(const launch::RankLayout& l) {
  return "rank " + std::to_string(l.rank) + " of " + std::to_string(l.world_size);
}

struct GlooDevice {
  std::shared_ptr<gloo::transport::Device> device;
  std::string address;  // how it was chosen, for the rank's log
};

// The Gloo device binds the address this rank advertises to the others: GLOO_SOCKET_IFNAME's
// interface when it is set, loopback for a one-host group, else the local address that routes to
// rank 0 (a hostname may resolve to 127.0.1.1 and would send the other hosts to loopback).
GlooDevice gloo_device(const launch::RankLayout& l) {
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME")) {
    return {c10d::ProcessGroupGloo::createDeviceForInterface(ifname),
            std::string("interface ") + ifname + " (GLOO_SOCKET_IFNAME)"};
  }
  if (l.master_addr == "127.0.0.1" || l.master_addr == "localhost") {
    return {c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"), "127.0.0.1"};
  }
  const launch::RouteAddress route = launch::local_address_towards(l.master_addr);
  if (!route.address.empty()) {
    return {c10d::ProcessGroupGloo::createDeviceForHostname(route.address),
            route.address + " (the route to " + l.master_addr + ")"};
  }
  return {c10d::ProcessGroupGloo::createDefaultDevice(),
          "this host's name (" + route.problem + ")"};
}

}  // namespace

// One transport's collectives (Gloo's, NCCL's) are a c10d::Backend.
using Collectives = c10d::Backend;

// The heartbeat's state, shared with its thread: a thread stuck on a store that no longer answers
// is left behind at shutdown (it owns what it uses), so that the process can still end.
struct Heartbeat {
  std::mutex mutex;
  std::condition_variable changed;
  bool stopping = false, ended = false;
};

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<Collectives> group;         // Gloo: host tensors, and every barrier
  c10::intrusive_ptr<Collectives> device_group;  // NCCL on CUDA builds: CUDA tensors
  Collectives& for_tensor(const at::Tensor& t) {
    return t.is_cuda() && device_group ? *device_group : *group;
  }
  std::string gloo_address;
  // The heartbeat: its own store connection, on its own thread.
  c10::intrusive_ptr<c10d::TCPStore> beat_store;
  std::shared_ptr<Heartbeat> heartbeat = std::make_shared<Heartbeat>();
  std::thread beat;
  std::atomic<bool> broken{false};  // a collective failed: peers may be gone
  bool store_unreachable = false;   // a store call did not come back (silent_ranks)
  std::vector<std::string> rank_hosts;

  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(heartbeat->mutex);
      heartbeat->stopping = true;
    }
    heartbeat->changed.notify_all();
    if (!beat.joinable()) return;
    std::unique_lock<std::mutex> lock(heartbeat->mutex);
    if (heartbeat->changed.wait_for(lock, kShutdownWait, [&] { return heartbeat->ended; })) {
      lock.unlock();
      beat.join();
    } else {
      beat.detach();  // blocked in a store call to a gone rank 0
    }
  }
};

namespace {

std::string beat_key(int64_t rank) {
  return "moe/heartbeat/" + std::to_string(rank);
}

// The store call happens outside the lock, so that stopping never waits for the store.
void keep_beating(std::shared_ptr<Heartbeat> heartbeat, c10::intrusive_ptr<c10d::TCPStore> store,
                  int64_t rank) {
  for (;;) {
    bool reachable = true;
    try {
      store->add(beat_key(rank), 1);
    } catch (const std::exception&) {
      reachable = false;  // the store (rank 0) is gone: nothing left to tell
    }
    std::unique_lock<std::mutex> lock(heartbeat->mutex);
    if (!reachable ||
        heartbeat->changed.wait_for(lock, kBeatInterval, [&] { return heartbeat->stopping; })) {
      heartbeat->ended = true;
      heartbeat->changed.notify_all();
      return;
    }
  }
}

// NCCL carries the collectives on CUDA tensors where this build has it: "nccl" asks for it, "auto"
// takes it when a CUDA device is visible. Gloo stays for host tensors (losses, flags, strings).
bool wants_nccl(protocol::Backend backend) {
#ifdef MOE_ENGINE_CUDA
  return backend == protocol::Backend::Nccl ||
         (backend == protocol::Backend::Auto && torch::cuda::is_available());
#else
  if (backend == protocol::Backend::Nccl) {
    throw std::invalid_argument("parallel.backend \"nccl\" needs a CUDA build of moe-train");
  }
  return false;
#endif
}

// The NCCL group beside Gloo's, on the same rendezvous store under its own key prefix.
c10::intrusive_ptr<Collectives> nccl_group(const c10::intrusive_ptr<c10d::TCPStore>& store,
                                           const launch::RankLayout& layout,
                                           std::chrono::milliseconds timeout) {
#ifdef MOE_ENGINE_CUDA
  // Blocking wait: a collective that times out (a dead or stalled peer) throws from wait(), which
  // the engine reports as it does Gloo's ("rank N stopped responding", run_end failed). Without
  // it NCCL's watchdog thread aborts the process (SIGABRT) and nothing is reported.
  setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 1);
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = timeout;
  auto prefixed = c10::make_intrusive<c10d::PrefixStore>("nccl/", store);
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, static_cast<int>(layout.rank),
                                                     static_cast<int>(layout.world_size), options);
#else
  (void)store, (void)layout, (void)timeout;
  return {};
#endif
}

}  // namespace

void PendingWork::wait() {
  if (!work_) return;
  auto& work = *static_cast<WorkPtr*>(work_.get());
  try {
    work->wait(timeout_);
  } catch (const std::exception& e) {
    work_.reset();
    const std::string who = diagnose_ ? diagnose_() : "";
    throw CollectiveError(what_ + " failed: " + (who.empty() ? "" : who + "; ") +
                          "c10d says: " + runtime::error_text(e));
  }
  work_.reset();
}

ProcessGroup::ProcessGroup(const launch::RankLayout& layout, protocol::Backend backend,
                           std::chrono::milliseconds timeout)
    : layout_(layout), timeout_(timeout), impl_(std::make_unique<Impl>()) {
  if (layout.world_size == 1) return;
  const bool nccl = wants_nccl(backend);
  backend_name_ = nccl ? "gloo + nccl" : "gloo";
  c10d::TCPStoreOptions options;
  options.port = static_cast<uint16_t>(layout.master_port);
  options.isServer = layout.rank == 0 && !layout.agent_store;
  options.numWorkers = static_cast<size_t>(layout.world_size);
  options.waitWorkers = true;
  options.timeout = timeout;
  try {
    impl_->store = c10::make_intrusive<c10d::TCPStore>(layout.master_addr, options);
    auto gloo = c10d::ProcessGroupGloo::Options::create(timeout);
    GlooDevice device = gloo_device(layout);
    impl_->gloo_address = device.address;
    gloo->devices.push_back(device.device);
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        impl_->store, static_cast<int>(layout.rank), static_cast<int>(layout.world_size), gloo);
    if (nccl) impl_->device_group = nccl_group(impl_->store, layout, timeout);
    c10d::TCPStoreOptions client = options;
    client.isServer = false;
    client.waitWorkers = false;
    impl_->beat_store = c10::make_intrusive<c10d::TCPStore>(layout.master_addr, client);
  } catch (const std::exception& e) {
    const std::string from = impl_->gloo_address.empty() ? "" : " from " + impl_->gloo_address;
    throw CollectiveError("rendezvous of " + where(layout) + from + " at " + layout.master_addr +
                          ":" + std::to_string(layout.master_port) +
                          " failed: " + runtime::error_text(e));
  }
  impl_->beat = std::thread(keep_beating, impl_->heartbeat, impl_->beat_store, layout.rank);
}

void ProcessGroup::name_hosts(std::vector<std::string> hosts) {
  impl_->rank_hosts = std::move(hosts);
}

const std::string& ProcessGroup::gloo_address() const {
  return impl_->gloo_address;
}

ProcessGroup::~ProcessGroup() {
  // After a failed collective, c10d's groups would wait in their destructors for work on peers
  // that are gone (Gloo's queue drains one time-out per pending work): the process is ending, so
  // they are left to it and only the heartbeat is stopped.
  if (impl_ && impl_->broken) {
    impl_->group.release();
    impl_->device_group.release();
    impl_->store.release();
    impl_->beat_store.release();
  }
}

namespace {

// The heartbeat counters of every rank, read on a thread of its own and waited for at most
// `limit`: a store call to a host whose link is gone blocks in recv() for as long as TCP
// retransmits (many minutes). Past the limit, or when the store fails, nullopt; a thread still
// blocked is left behind (it owns what it uses).
std::optional<std::vector<int64_t>> beats_within(const c10::intrusive_ptr<c10d::TCPStore>& store,
                                                 int64_t world, std::chrono::milliseconds limit) {
  struct Answer {
    std::mutex mutex;
    std::condition_variable ready;
    bool done = false;
    std::optional<std::vector<int64_t>> beats;
  };
  auto answer = std::make_shared<Answer>();
  std::thread([answer, store, world] {
    std::optional<std::vector<int64_t>> beats;
    try {
      std::vector<int64_t> read;
      for (int64_t q = 0; q < world; ++q) read.push_back(store->add(beat_key(q), 0));
      beats = std::move(read);
    } catch (const std::exception&) {
    }
    std::lock_guard<std::mutex> lock(answer->mutex);
    answer->beats = std::move(beats);
    answer->done = true;
    answer->ready.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(answer->mutex);
  if (!answer->ready.wait_for(lock, limit, [&] { return answer->done; })) return std::nullopt;
  return answer->beats;
}

}  // namespace

std::string ProcessGroup::silent_ranks() {
  if (is_single()) return "";
  const std::string gone = "rank 0 is gone or out of reach (its rendezvous store at " +
                           layout_.master_addr + ":" + std::to_string(layout_.master_port) +
                           " does not answer)";
  // A store client left blocked by an earlier call must not be used again.
  if (impl_->store_unreachable) return gone;
  const auto limit = 4 * kBeatInterval;
  const auto before = beats_within(impl_->store, world_size(), limit);
  if (before) std::this_thread::sleep_for(4 * kBeatInterval);
  const auto after = before ? beats_within(impl_->store, world_size(), limit) : std::nullopt;
  if (!before || !after) {
    impl_->store_unreachable = true;
    return gone;
  }
  std::vector<std::string> silent, hosts;  // the silent ranks, and their hosts once each
  const auto& known = impl_->rank_hosts;
  for (int64_t q = 0; q < world_size(); ++q) {
    if (q == rank() || (*after)[q] != (*before)[q]) continue;
    silent.push_back(std::to_string(q));
    if (q < static_cast<int64_t>(known.size()) &&
        std::find(hosts.begin(), hosts.end(), known[q]) == hosts.end())
      hosts.push_back(known[q]);
  }
  if (silent.empty()) return "every rank is still alive (one was slower than the time-out)";
  // "rank 1" / "ranks 1, 3", "host h1" / "hosts h1, h2".
  const auto named = [](const char* what, const std::vector<std::string>& items) {
    std::string text = std::string(what) + (items.size() == 1 ? " " : "s ");
    for (size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + items[i];
    return text;
  };
  return named("rank", silent) + " stopped responding (died or stalled)" +
         (hosts.empty() ? "" : ", on " + named("host", hosts));
}

PendingWork ProcessGroup::started(std::shared_ptr<void> work, const char* op) {
  return PendingWork(std::move(work), std::string(op) + " on " + where(layout_), timeout_, [this] {
    impl_->broken = true;
    return silent_ranks();
  });
}

namespace {

std::shared_ptr<void> hold(WorkPtr work) {
  return std::make_shared<WorkPtr>(std::move(work));
}

}  // namespace

PendingWork ProcessGroup::all_reduce_sum_async(at::Tensor& t) {
  if (is_single()) return {};
  std::vector<at::Tensor> tensors{t};
  c10d::AllreduceOptions o;
  o.reduceOp = c10d::ReduceOp::SUM;
  o.timeout = timeout_;
  return started(hold(impl_->for_tensor(t).allreduce(tensors, o)), "all_reduce");
}

void ProcessGroup::all_reduce_sum(at::Tensor& t) {
  all_reduce_sum_async(t).wait();
}

void ProcessGroup::all_reduce_max(at::Tensor& t) {
  if (is_single()) return;
  std::vector<at::Tensor> tensors{t};
  c10d::AllreduceOptions o;
  o.reduceOp = c10d::ReduceOp::MAX;
  o.timeout = timeout_;
  started(hold(impl_->for_tensor(t).allreduce(tensors, o)), "all_reduce(max)").wait();
}

at::Tensor ProcessGroup::all_gather(const at::Tensor& t) {
  if (is_single()) return t.unsqueeze(0).clone();
  auto in = t.contiguous();
  std::vector<int64_t> shape{world_size()};
  shape.insert(shape.end(), in.sizes().begin(), in.sizes().end());
  auto result = at::empty(shape, in.options());
  std::vector<std::vector<at::Tensor>> outputs(1);
  for (int64_t q = 0; q < world_size(); ++q) outputs[0].push_back(result[q]);
  std::vector<at::Tensor> inputs{in};
  c10d::AllgatherOptions o;
  o.timeout = timeout_;
  started(hold(impl_->for_tensor(in).allgather(outputs, inputs, o)), "all_gather").wait();
  return result;
}

PendingWork ProcessGroup::all_to_all_async(const at::Tensor& in, at::Tensor& out) {
  TORCH_CHECK(in.is_contiguous() && out.is_contiguous() && in.size(0) % world_size() == 0,
              "all_to_all: contiguous tensors with dim 0 divisible by the world size");
  if (is_single()) {
    out.copy_(in);
    return {};
  }
  std::vector<int64_t> equal_splits;  // empty: equal chunks
  auto input = in;
  c10d::AllToAllOptions o;
  o.timeout = timeout_;
  return started(
      hold(impl_->for_tensor(input).alltoall_base(out, input, equal_splits, equal_splits, o)),
      "all_to_all");
}

PendingWork ProcessGroup::all_to_all_rows_async(const at::Tensor& in, at::Tensor& out,
                                                const std::vector<int64_t>& send_rows,
                                                const std::vector<int64_t>& recv_rows) {
  const auto total = [](const std::vector<int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), int64_t{0});
  };
  TORCH_CHECK(
      in.is_contiguous() && out.is_contiguous() &&
          static_cast<int64_t>(send_rows.size()) == world_size() &&
          static_cast<int64_t>(recv_rows.size()) == world_size() &&
          in.size(0) == total(send_rows) && out.size(0) == total(recv_rows),
      "all_to_all_rows: contiguous tensors with as many rows as their splits, one per rank");
  if (is_single()) {
    out.copy_(in);
    return {};
  }
  auto input = in;
  c10d::AllToAllOptions o;
  o.timeout = timeout_;
  auto send = send_rows, recv = recv_rows;  // c10d takes them by non-const reference
  return started(hold(impl_->for_tensor(input).alltoall_base(out, input, recv, send, o)),
                 "all_to_all");
}

at::Tensor ProcessGroup::all_to_all_rows(const at::Tensor& in,
                                         const std::vector<int64_t>& send_rows,
                                         const std::vector<int64_t>& recv_rows) {
  auto input = in.contiguous();
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().end());
  shape[0] = std::accumulate(recv_rows.begin(), recv_rows.end(), int64_t{0});
  auto out = at::empty(shape, input.options());
  all_to_all_rows_async(input, out, send_rows, recv_rows).wait();
  return out;
}

at::Tensor ProcessGroup::all_to_all(const at::Tensor& in) {
  auto input = in.contiguous();
  auto out = at::empty_like(input);
  all_to_all_async(input, out).wait();
  return out;
}

void ProcessGroup::broadcast(at::Tensor& t, int64_t root) {
  if (is_single()) return;
  std::vector<at::Tensor> tensors{t};
  c10d::BroadcastOptions o;
  o.rootRank = root;
  o.timeout = timeout_;
  started(hold(impl_->for_tensor(t).broadcast(tensors, o)), "broadcast").wait();
}

void ProcessGroup::barrier() {
  if (is_single()) return;
  c10d::BarrierOptions o;
  o.timeout = timeout_;
  started(hold(impl_->group->barrier(o)), "barrier").wait();
}

std::string ProcessGroup::broadcast_string(const std::string& value, int64_t root) {
  if (is_single()) return value;
  auto length = at::tensor({static_cast<int64_t>(value.size())}, at::kLong);
  broadcast(length, root);
  auto bytes = at::zeros({length.item<int64_t>()}, at::kByte);
  if (rank() == root) std::memcpy(bytes.data_ptr(), value.data(), value.size());
  broadcast(bytes, root);
  return std::string(static_cast<const char*>(bytes.data_ptr()), bytes.numel());
}

}  // namespace moe::dist

#include "dist/process_group.h"

#include <cstring>

#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace moe::dist {

namespace {

using WorkPtr = c10::intrusive_ptr<c10d::Work>;

std::string where(const RankLayout& l) {
  return "rank " + std::to_string(l.rank) + " of " + std::to_string(l.world_size);
}

// The Gloo device binds this rank's address: loopback for a single-host group, the host's own
// address (or GLOO_SOCKET_IFNAME's interface) otherwise.
std::shared_ptr<gloo::transport::Device> gloo_device(const RankLayout& l) {
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME")) {
    return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
  }
  if (l.master_addr == "127.0.0.1" || l.master_addr == "localhost") {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

}  // namespace

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroup> group;
};

void PendingWork::wait() {
  if (!work_) return;
  auto& work = *static_cast<WorkPtr*>(work_.get());
  try {
    work->wait(timeout_);
  } catch (const std::exception& e) {
    work_.reset();
    throw CollectiveError(what_ + " failed (a rank died, stalled past the " +
                          std::to_string(timeout_.count() / 1000) +
                          " s time-out, or disagreed): " + e.what());
  }
  work_.reset();
}

ProcessGroup::ProcessGroup(const RankLayout& layout, const std::string& backend,
                           std::chrono::milliseconds timeout)
    : layout_(layout), timeout_(timeout), impl_(std::make_unique<Impl>()) {
  if (layout.world_size == 1) return;
  if (backend == "nccl") {
    throw std::invalid_argument("parallel.backend \"nccl\" needs a CUDA build of moe-train");
  }
  backend_name_ = "gloo";
  c10d::TCPStoreOptions options;
  options.port = static_cast<uint16_t>(layout.master_port);
  options.isServer = layout.rank == 0;
  options.numWorkers = static_cast<size_t>(layout.world_size);
  options.waitWorkers = true;
  options.timeout = timeout;
  try {
    impl_->store = c10::make_intrusive<c10d::TCPStore>(layout.master_addr, options);
    auto gloo = c10d::ProcessGroupGloo::Options::create(timeout);
    gloo->devices.push_back(gloo_device(layout));
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        impl_->store, static_cast<int>(layout.rank), static_cast<int>(layout.world_size), gloo);
  } catch (const std::exception& e) {
    throw CollectiveError("rendezvous of " + where(layout) + " at " + layout.master_addr + ":" +
                          std::to_string(layout.master_port) + " failed: " + e.what());
  }
}

ProcessGroup::~ProcessGroup() = default;

PendingWork ProcessGroup::started(std::shared_ptr<void> work, const char* op) {
  return PendingWork(std::move(work), std::string(op) + " on " + where(layout_), timeout_);
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
  return started(hold(impl_->group->allreduce(tensors, o)), "all_reduce");
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
  started(hold(impl_->group->allreduce(tensors, o)), "all_reduce(max)").wait();
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
  started(hold(impl_->group->allgather(outputs, inputs, o)), "all_gather").wait();
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
  return started(hold(impl_->group->alltoall_base(out, input, equal_splits, equal_splits, o)),
                 "all_to_all");
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
  started(hold(impl_->group->broadcast(tensors, o)), "broadcast").wait();
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

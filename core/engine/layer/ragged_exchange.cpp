#include "layer/ragged_exchange.h"

#include <algorithm>

#include "layer/saved_group.h"
#include "trace/phase_timer.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Slots [first, last) of a share of n rows that piece i of d covers.
struct Run {
  int64_t first, last;
  int64_t size() const { return last - first; }
};
Run piece_of(int64_t n, int64_t i, int64_t d) {
  return {i * n / d, (i + 1) * n / d};
}

// Uneven all-to-all; backward sends the gradients the same ways back (splits swapped).
struct RowsAllToAllFunction : torch::autograd::Function<RowsAllToAllFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, dist::ProcessGroup* group,
                            std::vector<int64_t> send, std::vector<int64_t> recv) {
    trace::ScopedPhase phase("a2a");
    save_group(ctx, group);
    ctx->saved_data["send"] = send;
    ctx->saved_data["recv"] = recv;
    return group->all_to_all_rows(x.contiguous(), send, recv);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    trace::ScopedPhase phase("a2a_backward");  // the trainer moves it from backward to a2a
    const auto send = ctx->saved_data["send"].toIntVector();
    const auto recv = ctx->saved_data["recv"].toIntVector();
    return {saved_group(ctx).all_to_all_rows(grads[0].contiguous(), recv, send), at::Tensor(),
            at::Tensor(), at::Tensor()};
  }
};

}  // namespace

RaggedRoute ragged_route(const std::vector<int64_t>& shares, int64_t world, int64_t rank,
                         int64_t slots, int64_t piece, int64_t pieces, const at::Device& device) {
  const int64_t E = static_cast<int64_t>(shares.size()) / world, El = E / world;
  TORCH_CHECK(E * world == static_cast<int64_t>(shares.size()) && El * world == E,
              "ragged_route: shares must be [W * E] with E a multiple of W");
  const auto share = [&](int64_t q, int64_t e) {
    return piece_of(shares[q * E + e], piece, pieces);
  };
  RaggedRoute route;
  route.local_experts = El;
  route.send_splits.assign(world, 0);
  route.recv_splits.assign(world, 0);
  std::vector<int64_t> send_rows;
  for (int64_t q = 0; q < world; ++q) {
    for (int64_t e = q * El; e < (q + 1) * El; ++e) {
      const Run run = share(rank, e);
      for (int64_t s = run.first; s < run.last; ++s) send_rows.push_back(e * slots + s);
      route.send_splits[q] += run.size();
    }
  }
  // Received in rank order, each rank's rows expert by expert: pack each expert's in that order.
  std::vector<int64_t> filled(El, 0);
  for (int64_t q = 0; q < world; ++q) {
    for (int64_t j = 0; j < El; ++j) filled[j] += share(q, rank * El + j).size();
  }
  route.rows_per_expert = std::max<int64_t>(1, *std::max_element(filled.begin(), filled.end()));
  std::vector<int64_t> expert_rows, next(El, 0);
  for (int64_t q = 0; q < world; ++q) {
    for (int64_t j = 0; j < El; ++j) {
      const int64_t n = share(q, rank * El + j).size();
      for (int64_t t = 0; t < n; ++t) expert_rows.push_back(j * route.rows_per_expert + next[j]++);
      route.recv_splits[q] += n;
    }
  }
  const auto longs = [&](const std::vector<int64_t>& v) {
    return at::tensor(v, at::kLong).to(device);
  };
  route.send_rows = longs(send_rows);
  route.expert_rows = longs(expert_rows);
  return route;
}

at::Tensor rows_to_send(const at::Tensor& dispatched, const RaggedRoute& route) {
  return dispatched.reshape({-1, dispatched.size(-1)}).index_select(0, route.send_rows);
}

at::Tensor rows_for_experts(const at::Tensor& received, const RaggedRoute& route) {
  const int64_t El = route.local_experts, R = route.rows_per_expert, M = received.size(-1);
  return at::zeros({El * R, M}, received.options())
      .index_copy(0, route.expert_rows, received)
      .reshape({El, R, M});
}

at::Tensor rows_to_return(const at::Tensor& expert_rows, const RaggedRoute& route) {
  return expert_rows.reshape({-1, expert_rows.size(-1)}).index_select(0, route.expert_rows);
}

at::Tensor rows_returned(at::Tensor out, const at::Tensor& returned, const RaggedRoute& route) {
  const auto shape = out.sizes().vec();
  return out.reshape({-1, out.size(-1)}).index_copy(0, route.send_rows, returned).reshape(shape);
}

at::Tensor ragged_to_experts(const at::Tensor& dispatched, const RaggedRoute& route,
                             dist::ProcessGroup& group) {
  auto received = RowsAllToAllFunction::apply(rows_to_send(dispatched, route), &group,
                                              route.send_splits, route.recv_splits);
  return rows_for_experts(received, route);
}

at::Tensor ragged_from_experts(const at::Tensor& expert_out, const RaggedRoute& route,
                               dist::ProcessGroup& group, int64_t experts, int64_t slots) {
  auto back = RowsAllToAllFunction::apply(rows_to_return(expert_out, route), &group,
                                          route.recv_splits, route.send_splits);
  const auto out = at::zeros({experts, slots, expert_out.size(-1)}, expert_out.options());
  return rows_returned(out, back, route);
}

}  // namespace moe::layer

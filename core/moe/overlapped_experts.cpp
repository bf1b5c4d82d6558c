#include "moe/overlapped_experts.h"

#include "moe/expert_ffn.h"
#include "moe/optional_tensor.h"
#include "moe/ragged_exchange.h"
#include "moe/saved_group.h"
#include "telemetry/phase_timer.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// The d pieces of every rank's shares (ragged_exchange.h): piece i of each share of slots.
std::vector<RaggedRoute> piece_routes(const std::vector<int64_t>& shares, dist::ProcessGroup& group,
                                      int64_t slots, int64_t d, const at::Device& device) {
  std::vector<RaggedRoute> routes;
  for (int64_t i = 0; i < d; ++i)
    routes.push_back(ragged_route(shares, group.world_size(), group.rank(), slots, i, d, device));
  return routes;
}

// Starts every piece's exchange of `buffer` [E, S, M], then hands each arrived piece's expert
// rows [El, R, M] to `work`, whose result starts back at once; returns the [E, S, M] of the
// pieces that came back (zero where no rank had a token).
template <class Work>
at::Tensor pipeline(dist::ProcessGroup& group, const at::Tensor& buffer,
                    const std::vector<RaggedRoute>& routes, const char* wait_phase, Work&& work) {
  const size_t d = routes.size();
  std::vector<at::Tensor> sent(d), received(d), results(d), returned(d);
  std::vector<dist::PendingWork> in(d), out(d);
  const auto rows = [&](int64_t n) { return at::empty({n, buffer.size(2)}, buffer.options()); };
  for (size_t i = 0; i < d; ++i) {
    sent[i] = rows_to_send(buffer, routes[i]);
    received[i] = rows(routes[i].expert_rows.size(0));
    in[i] = group.all_to_all_rows_async(sent[i], received[i], routes[i].send_splits,
                                        routes[i].recv_splits);
  }
  for (size_t i = 0; i < d; ++i) {
    {
      ScopedPhase phase(wait_phase);
      in[i].wait();
    }
    results[i] = rows_to_return(work(i, rows_for_experts(received[i], routes[i])), routes[i]);
    returned[i] = rows(routes[i].send_rows.size(0));
    out[i] = group.all_to_all_rows_async(results[i], returned[i], routes[i].recv_splits,
                                         routes[i].send_splits);
  }
  {
    ScopedPhase phase(wait_phase);
    for (auto& w : out) w.wait();
  }
  at::Tensor whole = at::zeros_like(buffer);
  for (size_t i = 0; i < d; ++i) whole = rows_returned(whole, returned[i], routes[i]);
  return whole;
}

struct OverlappedExpertsFunction : torch::autograd::Function<OverlappedExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& dispatched, at::Tensor w1,
                            at::Tensor b1, at::Tensor w2, at::Tensor b2, dist::ProcessGroup* group,
                            int64_t degree, int64_t act_code, std::vector<int64_t> shares) {
    const ExpertWeights w{w1, b1, w2, b2};
    const auto act = static_cast<Activation>(act_code);
    std::vector<at::Tensor> saved;
    const auto routes =
        piece_routes(shares, *group, dispatched.size(1), degree, dispatched.device());
    auto back = pipeline(*group, dispatched.contiguous(), routes, "a2a",
                         [&](size_t, const at::Tensor& rows) {
                           ScopedPhase phase("experts");
                           ExpertFfnSaved s;
                           auto y = expert_ffn_forward(rows, w, act, s);
                           saved.insert(saved.end(), {s.d, s.z, s.a});
                           return y;
                         });
    saved.insert(saved.end(), {w1, b1, w2, b2});
    ctx->save_for_backward(saved);
    save_group(ctx, group);
    ctx->saved_data["degree"] = degree;
    ctx->saved_data["act"] = act_code;
    ctx->saved_data["shares"] = shares;
    return back;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto& group = saved_group(ctx);
    const int64_t d = ctx->saved_data["degree"].toInt();
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    const auto v = ctx->get_saved_variables();
    const ExpertWeights w{v[3 * d], v[3 * d + 1], v[3 * d + 2], v[3 * d + 3]};
    const auto& grad = grads[0];
    at::Tensor g1 = at::zeros_like(w.fc1_w), g2 = at::zeros_like(w.fc2_w), gb1, gb2;
    const auto routes = piece_routes(ctx->saved_data["shares"].toIntVector(), group, grad.size(1),
                                     d, grad.device());
    auto back = pipeline(group, grad.contiguous(), routes, "a2a_backward",
                         [&](size_t i, const at::Tensor& grad_rows) {
                           const ExpertFfnSaved s{v[3 * i], v[3 * i + 1], v[3 * i + 2]};
                           auto g = expert_ffn_backward(grad_rows, s, w, act, true, true);
                           g1 += g.fc1_w;
                           g2 += g.fc2_w;
                           if (g.fc1_b.defined()) gb1 = gb1.defined() ? gb1 + g.fc1_b : g.fc1_b;
                           if (g.fc2_b.defined()) gb2 = gb2.defined() ? gb2 + g.fc2_b : g.fc2_b;
                           return g.d;
                         });
    return {back, g1, gb1, g2, gb2, at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor overlapped_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                              dist::ProcessGroup& group, int64_t degree,
                              const std::vector<int64_t>& rank_shares) {
  const auto w = experts.weights();
  return OverlappedExpertsFunction::apply(dispatched, w[0], empty_if_undefined(w[1], w[0]), w[2],
                                          empty_if_undefined(w[3], w[2]), &group, degree,
                                          static_cast<int64_t>(experts.activation()), rank_shares);
}

}  // namespace moe

#include "layer/overlapped_experts.h"

#include "layer/optional_tensor.h"
#include "layer/ragged_exchange.h"
#include "layer/saved_group.h"
#include "trace/phase_timer.h"

namespace moe::layer {

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
      trace::ScopedPhase phase(wait_phase);
      in[i].wait();
    }
    results[i] = rows_to_return(work(i, rows_for_experts(received[i], routes[i])), routes[i]);
    returned[i] = rows(routes[i].send_rows.size(0));
    out[i] = group.all_to_all_rows_async(results[i], returned[i], routes[i].recv_splits,
                                         routes[i].send_splits);
  }
  {
    trace::ScopedPhase phase(wait_phase);
    for (auto& w : out) w.wait();
  }
  at::Tensor whole = at::zeros_like(buffer);
  for (size_t i = 0; i < d; ++i) whole = rows_returned(whole, returned[i], routes[i]);
  return whole;
}

// The experts' weights travel as kMaxWeights tensor arguments (autograd tracks only those), empty
// where a kind has fewer or an optional one is absent.
struct OverlappedExpertsFunction : torch::autograd::Function<OverlappedExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& dispatched, at::Tensor w0,
                            at::Tensor w1, at::Tensor w2, at::Tensor w3, at::Tensor w4,
                            at::Tensor w5, const ExpertsImpl* experts, dist::ProcessGroup* group,
                            int64_t degree, std::vector<int64_t> shares, int64_t weight_count) {
    const std::vector<at::Tensor> args{w0, w1, w2, w3, w4, w5};
    const std::vector<at::Tensor> w = weights_of(args, weight_count);
    std::vector<at::Tensor> saved;
    int64_t per_piece = 0;
    const auto routes =
        piece_routes(shares, *group, dispatched.size(1), degree, dispatched.device());
    auto back = pipeline(*group, dispatched.contiguous(), routes, "a2a",
                         [&](size_t, const at::Tensor& rows) {
                           trace::ScopedPhase phase("experts");
                           ExpertsSaved s;
                           auto y = experts->forward_saving(rows, w, s);
                           per_piece = static_cast<int64_t>(s.size());
                           saved.insert(saved.end(), s.begin(), s.end());
                           return y;
                         });
    saved.insert(saved.end(), args.begin(), args.end());
    ctx->save_for_backward(saved);
    save_group(ctx, group);
    ctx->saved_data["experts"] = reinterpret_cast<int64_t>(experts);
    ctx->saved_data["degree"] = degree;
    ctx->saved_data["per_piece"] = per_piece;
    ctx->saved_data["weights"] = weight_count;
    ctx->saved_data["shares"] = shares;
    return back;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto& group = saved_group(ctx);
    const auto* experts = reinterpret_cast<const ExpertsImpl*>(ctx->saved_data["experts"].toInt());
    const int64_t d = ctx->saved_data["degree"].toInt();
    const int64_t per_piece = ctx->saved_data["per_piece"].toInt();
    const auto v = ctx->get_saved_variables();
    const std::vector<at::Tensor> args(v.begin() + d * per_piece, v.end());
    const std::vector<at::Tensor> w = weights_of(args, ctx->saved_data["weights"].toInt());
    const auto& grad = grads[0];
    std::vector<at::Tensor> weight_grads(w.size());
    const auto routes = piece_routes(ctx->saved_data["shares"].toIntVector(), group, grad.size(1),
                                     d, grad.device());
    auto back =
        pipeline(group, grad.contiguous(), routes, "a2a_backward",
                 [&](size_t i, const at::Tensor& grad_rows) {
                   const ExpertsSaved s(v.begin() + i * per_piece, v.begin() + (i + 1) * per_piece);
                   auto g = experts->backward(grad_rows, s, w, true, true);
                   for (size_t j = 0; j < w.size(); ++j) {
                     const at::Tensor& gj = g[j + 1];
                     if (!gj.defined()) continue;
                     weight_grads[j] = weight_grads[j].defined() ? weight_grads[j] + gj : gj;
                   }
                   return g[0];
                 });
    variable_list out{back};
    for (size_t j = 0; j < ExpertsImpl::kMaxWeights; ++j)
      out.push_back(j < weight_grads.size() ? weight_grads[j] : at::Tensor());
    out.resize(out.size() + 5);  // experts, group, degree, shares, weight_count
    return out;
  }

  static std::vector<at::Tensor> weights_of(const std::vector<at::Tensor>& args, int64_t count) {
    std::vector<at::Tensor> w;
    for (int64_t j = 0; j < count; ++j) w.push_back(undefined_if_empty(args[j]));
    return w;
  }
};

}  // namespace

at::Tensor overlapped_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                              dist::ProcessGroup& group, int64_t degree,
                              const std::vector<int64_t>& rank_shares) {
  const auto w = experts.weights();
  std::vector<at::Tensor> args;
  for (size_t j = 0; j < ExpertsImpl::kMaxWeights; ++j)
    args.push_back(empty_if_undefined(j < w.size() ? w[j] : at::Tensor(), dispatched));
  return OverlappedExpertsFunction::apply(dispatched, args[0], args[1], args[2], args[3], args[4],
                                          args[5], &experts, &group, degree, rank_shares,
                                          static_cast<int64_t>(w.size()));
}

}  // namespace moe::layer

#include "moe/overlapped_experts.h"

#include "moe/expert_ffn.h"
#include "moe/optional_tensor.h"
#include "moe/saved_group.h"
#include "telemetry/phase_timer.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// [W, El, d, chunk, M] view of a [E, C, M] buffer: chunk i of every expert's slots, per rank.
std::vector<at::Tensor> chunks(const at::Tensor& t, int64_t W, int64_t d) {
  auto v = t.reshape({W, t.size(0) / W, d, t.size(1) / d, t.size(2)});
  std::vector<at::Tensor> out;
  for (int64_t i = 0; i < d; ++i) out.push_back(v.select(2, i).contiguous());
  return out;
}

at::Tensor unchunk(const std::vector<at::Tensor>& parts, int64_t E, int64_t C, int64_t M) {
  return at::stack(parts, 2).reshape({E, C, M});
}

// Received [W sources, El, chunk, M] <-> the experts' rows [El, W * chunk, M].
at::Tensor as_expert_rows(const at::Tensor& received) {
  const int64_t W = received.size(0), El = received.size(1), c = received.size(2);
  return received.permute({1, 0, 2, 3}).reshape({El, W * c, received.size(3)});
}
at::Tensor as_rank_chunks(const at::Tensor& rows, int64_t W) {
  const int64_t El = rows.size(0), c = rows.size(1) / W, M = rows.size(2);
  return rows.reshape({El, W, c, M}).permute({1, 0, 2, 3}).contiguous();
}

// Starts every chunk's exchange, then hands each arrived chunk to `work`, whose result starts
// back at once; returns the chunks that came back.
template <class Work>
std::vector<at::Tensor> pipeline(dist::ProcessGroup& group, const std::vector<at::Tensor>& send,
                                 const char* wait_phase, Work&& work) {
  const size_t d = send.size();
  std::vector<at::Tensor> received(d), returned(d);
  std::vector<dist::PendingWork> in(d), out(d);
  for (size_t i = 0; i < d; ++i) {
    received[i] = at::empty_like(send[i]);
    in[i] = group.all_to_all_async(send[i], received[i]);
  }
  for (size_t i = 0; i < d; ++i) {
    {
      ScopedPhase phase(wait_phase);
      in[i].wait();
    }
    auto result = as_rank_chunks(work(i, as_expert_rows(received[i])), group.world_size());
    returned[i] = at::empty_like(result);
    out[i] = group.all_to_all_async(result, returned[i]);
    received[i] = result;  // keeps the send buffer alive until its exchange is done
  }
  ScopedPhase phase(wait_phase);
  for (auto& w : out) w.wait();
  return returned;
}

struct OverlappedExpertsFunction : torch::autograd::Function<OverlappedExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& dispatched, at::Tensor w1,
                            at::Tensor b1, at::Tensor w2, at::Tensor b2, dist::ProcessGroup* group,
                            int64_t degree, int64_t act_code) {
    const int64_t E = dispatched.size(0), C = dispatched.size(1), M = dispatched.size(2);
    const ExpertWeights w{w1, b1, w2, b2};
    const auto act = static_cast<Activation>(act_code);
    std::vector<at::Tensor> saved;
    auto back = pipeline(*group, chunks(dispatched, group->world_size(), degree), "a2a",
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
    return unchunk(back, E, C, M);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto& group = saved_group(ctx);
    const int64_t d = ctx->saved_data["degree"].toInt();
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    const auto v = ctx->get_saved_variables();
    const ExpertWeights w{v[3 * d], v[3 * d + 1], v[3 * d + 2], v[3 * d + 3]};
    const auto& grad = grads[0];
    at::Tensor g1 = at::zeros_like(w.fc1_w), g2 = at::zeros_like(w.fc2_w), gb1, gb2;
    auto back = pipeline(group, chunks(grad, group.world_size(), d), "a2a_backward",
                         [&](size_t i, const at::Tensor& grad_rows) {
                           const ExpertFfnSaved s{v[3 * i], v[3 * i + 1], v[3 * i + 2]};
                           auto g = expert_ffn_backward(grad_rows, s, w, act, true, true);
                           g1 += g.fc1_w;
                           g2 += g.fc2_w;
                           if (g.fc1_b.defined()) gb1 = gb1.defined() ? gb1 + g.fc1_b : g.fc1_b;
                           if (g.fc2_b.defined()) gb2 = gb2.defined() ? gb2 + g.fc2_b : g.fc2_b;
                           return g.d;
                         });
    return {unchunk(back, grad.size(0), grad.size(1), grad.size(2)),
            g1,
            gb1,
            g2,
            gb2,
            at::Tensor(),
            at::Tensor(),
            at::Tensor()};
  }
};

}  // namespace

at::Tensor overlapped_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                              dist::ProcessGroup& group, int64_t degree) {
  TORCH_CHECK(dispatched.size(1) % degree == 0, "slots per expert (", dispatched.size(1),
              ") must split into ", degree, " chunks");
  const auto w = experts.weights();
  return OverlappedExpertsFunction::apply(dispatched, w[0], empty_if_undefined(w[1], w[0]), w[2],
                                          empty_if_undefined(w[3], w[2]), &group, degree,
                                          static_cast<int64_t>(experts.activation()));
}

}  // namespace moe

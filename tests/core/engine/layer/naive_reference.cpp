#include "naive_reference.h"

#include <cmath>

namespace moe::test {

namespace {

at::Tensor param(moe::layer::MoeLayerImpl& layer, const std::string& name) {
  auto params = layer.named_parameters();
  auto* p = params.find(name);
  return p ? *p : at::Tensor();
}

at::Tensor naive_logits(moe::layer::MoeLayerImpl& layer, const at::Tensor& x) {
  const auto& c = layer.config();
  auto xg = c.fp32_gate ? x.to(at::kFloat) : x;
  auto cast = [&](at::Tensor t) { return t.to(xg.scalar_type()); };
  if (c.gate == moe::protocol::Gate::Top)
    return xg.matmul(cast(param(layer, "gates.0.wg.weight")).t());
  auto proj = xg.matmul(cast(param(layer, "gates.0.cosine_projector.weight")).t()) +
              cast(param(layer, "gates.0.cosine_projector.bias"));
  auto tokens = proj / proj.norm(2, 1, true).clamp_min(1e-12);
  auto sim = cast(param(layer, "gates.0.sim_matrix"));
  auto experts = sim / sim.norm(2, 0, true).clamp_min(1e-12);
  auto t = cast(param(layer, "gates.0.temperature"));
  return tokens.matmul(experts) * t.clamp_max(std::log(100.0)).exp();
}

at::Tensor activation(const at::Tensor& h, moe::protocol::Activation act) {
  if (act == moe::protocol::Activation::Relu) return h.clamp_min(0);
  if (act == moe::protocol::Activation::Silu) return h * h.sigmoid();
  return 0.5 * h * (1 + at::erf(h / std::sqrt(2.0)));
}

// Every expert applied to every token: [N, M] -> [N, E, M].
at::Tensor all_experts(moe::layer::MoeLayerImpl& layer, const at::Tensor& x) {
  auto h = at::einsum("nm,ehm->neh", {x, param(layer, "experts.batched_fc1_w")});
  if (auto b1 = param(layer, "experts.batched_fc1_bias"); b1.defined()) h = h + b1;
  h = activation(h, layer.config().activation);
  auto y = at::einsum("neh,ehm->nem", {h, param(layer, "experts.batched_fc2_w")});
  if (auto b2 = param(layer, "experts.batched_fc2_bias"); b2.defined()) y = y + b2;
  return y;
}

int64_t spec_capacity(double f, int64_t N, int64_t E, int64_t k, int64_t max_demand) {
  const int64_t spe = (N + E - 1) / E;
  if (f > 0) return k * static_cast<int64_t>(std::floor(f * spe));
  if (f == 0) return max_demand;
  return std::min(max_demand, k * static_cast<int64_t>(std::floor(-f * spe)));
}

}  // namespace

NaiveResult naive_moe(moe::layer::MoeLayerImpl& layer, const at::Tensor& x) {
  const auto& c = layer.config();
  const int64_t N = x.size(0), E = c.experts, k = std::min(c.top_k, E);
  auto logits = naive_logits(layer, x);
  auto scores = at::softmax(logits, 1);

  // Choices by repeatedly taking the arg-max and masking it out (ties: lower index).
  std::vector<at::Tensor> masks;  // [N, E] one-hot per choice
  auto remaining = scores.detach().to(at::kDouble).clone();
  for (int64_t j = 0; j < k; ++j) {
    auto idx = remaining.argmax(1);
    auto mask = at::one_hot(idx, E).to(at::kDouble);
    masks.push_back(mask);
    remaining = remaining - mask * 1e30;
  }
  // Token order in which slots are claimed.
  std::vector<int64_t> order(N);
  for (int64_t n = 0; n < N; ++n) order[n] = n;
  if (c.batch_prioritized_routing) {
    auto top1 = (scores.detach().to(at::kDouble) * masks[0]).sum(1);
    auto a = top1.accessor<double, 1>();
    std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return a[p] > a[q]; });
  }
  // loc_j[n] by counting, exactly as docs/ROUTING.md, "Slots (locations)" words it.
  std::vector<std::vector<int64_t>> loc(k, std::vector<int64_t>(N));
  std::vector<int64_t> demand(E, 0);
  for (int64_t j = 0; j < k; ++j) {
    auto expert_of = masks[j].argmax(1);
    for (int64_t n : order) {
      int64_t e = expert_of[n].item<int64_t>();
      loc[j][n] = demand[e]++;
    }
  }
  const int64_t max_demand = *std::max_element(demand.begin(), demand.end());
  const int64_t C = spec_capacity(c.capacity_factor, N, E, k, max_demand);

  std::vector<at::Tensor> gates;
  for (int64_t j = 0; j < k; ++j)
    gates.push_back((scores * masks[j].to(scores.scalar_type())).sum(1));
  if (c.normalize_gate && k > 1) {
    auto denom = gates[0];
    for (int64_t j = 1; j < k; ++j) denom = denom + gates[j];
    const double eps =
        scores.scalar_type() == at::kDouble ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    denom = denom.clamp_min(eps);
    for (auto& g : gates) g = g / denom;
  }

  auto out = at::zeros_like(x);
  std::vector<int64_t> kept(E, 0);
  for (int64_t j = 0; j < k; ++j) {
    auto keep = at::zeros({N}, x.options());
    auto expert_of = masks[j].argmax(1);
    for (int64_t n = 0; n < N; ++n) {
      if (loc[j][n] < C) {
        keep[n] = 1;
        kept[expert_of[n].item<int64_t>()]++;
      }
    }
    auto g = gates[j].to(x.scalar_type());
    auto in = c.postscore ? x : x * g.unsqueeze(1);
    auto y = (all_experts(layer, in) * masks[j].to(x.scalar_type()).unsqueeze(2)).sum(1);
    out = out +
          y * keep.unsqueeze(1) * (c.postscore ? g.unsqueeze(1) : at::ones_like(keep).unsqueeze(1));
  }
  NaiveResult r;
  r.output = out;
  auto f0 = masks[0].sum(0).to(scores.scalar_type()) / static_cast<double>(N);
  r.l_aux = (scores.mean(0) * f0).sum() * static_cast<double>(E);
  r.demand = torch::tensor(demand, at::kLong);
  r.kept = torch::tensor(kept, at::kLong);
  r.capacity = C;
  return r;
}

}  // namespace moe::test

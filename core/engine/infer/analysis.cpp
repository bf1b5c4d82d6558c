#include "infer/analysis.h"

#include <algorithm>
#include <cmath>

#include "layer/load_metrics.h"
#include "layer/routing_plan.h"

namespace moe::infer {

namespace {

std::vector<int64_t> to_vector(const at::Tensor& t) {
  const auto c = t.to(at::kCPU, at::kLong).contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

}  // namespace

RoutingAnalysis::RoutingAnalysis(model::DecoderModelImpl& model, AnalysisOptions options)
    : model_(model), options_(std::move(options)) {
  for (auto& [index, moe] : model_.moe_blocks()) {
    LayerAnalysis a;
    a.layer = index;
    a.experts = moe->config().experts;
    a.top_k = moe->config().top_k;
    a.load.assign(a.experts, 0);
    a.dropped.assign(options_.capacity_factors.size(), 0);
    a.co_selected.assign(a.experts * a.experts, 0);
    a.token_counts.resize(a.experts);
    layers_.push_back(std::move(a));
    moes_.push_back(moe.get());
  }
  for (size_t i = 0; i < moes_.size(); ++i) {
    if (options_.on_input) {
      moes_[i]->set_input_observer(
          [this, i](const at::Tensor& x) { options_.on_input(i, *moes_[i], x); });
    }
    // The forward pass's own routing, counted as the layer routes (nothing routed twice).
    moes_[i]->set_routing_observer(
        [this, i](const layer::Routing& routing) { count(layers_[i], routing); });
  }
}

RoutingAnalysis::~RoutingAnalysis() {
  for (auto* moe : moes_) {
    moe->set_input_observer({});
    moe->set_routing_observer({});
  }
}

void RoutingAnalysis::add_batch(const at::Tensor& tokens) {
  at::NoGradGuard no_grad;
  batch_ids_ = tokens.reshape({-1}).to(at::kCPU, at::kLong).contiguous();
  model_.logits(tokens.to(model_.parameters().front().device()));
  tokens_ += tokens.numel();
}

void RoutingAnalysis::count(LayerAnalysis& a, const layer::Routing& routing) {
  const at::Tensor& idx = routing.plan.idx;  // [k, N] int32
  const int64_t k = idx.size(0), N = idx.size(1), E = a.experts;
  a.tokens += N;
  const auto demand = to_vector(routing.plan.demand);
  for (int64_t e = 0; e < E; ++e) a.load[e] += demand[e];
  for (size_t f = 0; f < options_.capacity_factors.size(); ++f) {
    const auto slots = layer::count_slots(idx, at::Tensor(), E, options_.capacity_factors[f], 1);
    a.dropped[f] += k * N - slots.kept.sum().item<int64_t>();
  }
  const auto choices = to_vector(idx);
  const int64_t* ids = batch_ids_.data_ptr<int64_t>();
  const bool have_ids = batch_ids_.numel() == N;
  std::vector<int64_t> chosen(k);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t j = 0; j < k; ++j) chosen[j] = choices[j * N + n];
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t j = 0; j < k; ++j) a.co_selected[chosen[i] * E + chosen[j]] += 1;
      if (have_ids) a.token_counts[chosen[i]][ids[n]] += 1;
    }
  }
}

nlohmann::json RoutingAnalysis::report(const std::function<std::string(int64_t)>& piece) const {
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& a : layers_) {
    const auto b = layer::load_stats_from_counts(a.load, a.load, 0);
    nlohmann::json drops = nlohmann::json::array();
    const double choices = static_cast<double>(std::max<int64_t>(a.tokens * a.top_k, 1));
    for (size_t f = 0; f < a.dropped.size(); ++f) {
      drops.push_back({{"capacity_factor", options_.capacity_factors[f]},
                       {"dropped", a.dropped[f]},
                       {"dropped_share", static_cast<double>(a.dropped[f]) / choices}});
    }
    nlohmann::json co = nlohmann::json::array();
    for (int64_t i = 0; i < a.experts; ++i) {
      co.push_back(std::vector<int64_t>(a.co_selected.begin() + i * a.experts,
                                        a.co_selected.begin() + (i + 1) * a.experts));
    }
    nlohmann::json top = nlohmann::json::array();
    for (const auto& counts : a.token_counts) {
      std::vector<std::pair<int64_t, int64_t>> sorted(counts.begin(), counts.end());
      std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
      });
      if (static_cast<int64_t>(sorted.size()) > options_.top_tokens)
        sorted.resize(options_.top_tokens);
      nlohmann::json list = nlohmann::json::array();
      for (const auto& [id, n] : sorted) {
        nlohmann::json t = {{"id", id}, {"count", n}};
        if (piece) t["text"] = piece(id);
        list.push_back(std::move(t));
      }
      top.push_back(std::move(list));
    }
    layers.push_back({{"layer", a.layer},
                      {"experts", a.experts},
                      {"top_k", a.top_k},
                      {"tokens", a.tokens},
                      {"load", a.load},
                      {"cv", b.cv},
                      {"max_over_mean", b.max_over_mean},
                      {"dead_experts", b.dead_experts},
                      {"capacity", drops},
                      {"co_selection", co},
                      {"top_tokens", top}});
  }
  return {{"tokens", tokens_}, {"layers", layers}};
}

}  // namespace moe::infer

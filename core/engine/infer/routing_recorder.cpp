#include "infer/routing_recorder.h"

namespace moe::infer {

RoutingRecorder::RoutingRecorder(model::DecoderModelImpl& model) : blocks_(model.moe_blocks()) {
  latest_.resize(blocks_.size());
  for (size_t i = 0; i < blocks_.size(); ++i) {
    latest_[i].layer = blocks_[i].first;
    blocks_[i].second->set_routing_observer([this, i](const layer::Routing& r) {
      latest_[i].experts = r.plan.idx.to(at::kCPU, at::kLong);
      latest_[i].weights = r.gates.detach().to(at::kCPU, at::kDouble);
    });
  }
}

RoutingRecorder::~RoutingRecorder() {
  for (auto& block : blocks_) block.second->set_routing_observer({});
}

std::vector<ExpertChoice> RoutingRecorder::choices(int64_t n) const {
  std::vector<ExpertChoice> out;
  for (const auto& l : latest_) {
    if (!l.experts.defined() || n >= l.experts.size(1)) continue;
    ExpertChoice c;
    c.layer = l.layer;
    const auto experts = l.experts.accessor<int64_t, 2>();
    const auto weights = l.weights.accessor<double, 2>();
    for (int64_t j = 0; j < l.experts.size(0); ++j) {
      c.experts.push_back(experts[j][n]);
      c.weights.push_back(weights[j][n]);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace moe::infer

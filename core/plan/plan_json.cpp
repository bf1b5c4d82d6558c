#include "plan/plan_json.h"

namespace moe::plan {

nlohmann::json layout_json(const LayoutPrediction& lp) {
  const StepPrediction& p = lp.prediction;
  const StepCounts& c = p.counts;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, ms] : p.phases_ms) phases[name] = ms;
  return {
      {"nodes", lp.layout.nodes},
      {"nproc_per_node", lp.layout.nproc_per_node},
      {"world", lp.layout.world()},
      {"r", lp.layout.r},
      {"overlap", lp.layout.overlap},
      {"step_ms", p.step_ms},
      {"tokens_per_s", p.tokens_per_s},
      {"model_flops_per_step", c.model_flops},
      {"tflops_per_rank",
       p.step_ms > 0 ? c.model_flops / (p.step_ms / 1e3) / double(lp.layout.world()) / 1e12 : 0.0},
      {"compute_ms", p.compute_ms},
      {"a2a_ms", p.a2a_ms},
      {"allreduce_ms", p.allreduce_ms},
      {"memory_bytes_per_rank", p.memory_bytes},
      {"a2a_bytes_per_step", c.a2a_forward.bytes + c.a2a_backward.bytes},
      {"a2a_inter_node_bytes_per_step",
       c.a2a_forward.inter_node_bytes + c.a2a_backward.inter_node_bytes},
      {"expert_gather_bytes_per_step", c.gather_forward.bytes + c.gather_backward.bytes},
      {"allreduce_bytes_per_step", c.allreduce.bytes},
      {"slots_per_expert", c.capacity_slots},
      {"ranks_per_device", p.ranks_per_device},
      {"phases_ms", phases},
      {"fits", p.fits}};
}

nlohmann::json plan_json(const std::vector<LayoutPrediction>& layouts,
                         const std::optional<LayoutPrediction>& best,
                         const HardwareProfile& profile) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& l : layouts) list.push_back(layout_json(l));
  return {{"profile", profile.name},
          {"device", profile.device.name},
          {"layouts", list},
          {"best", best ? layout_json(*best) : nlohmann::json()}};
}

nlohmann::json decode_json(const DecodePrediction& p, const std::string& profile) {
  return {{"profile", profile},
          {"batch", p.query.batch},
          {"context", p.query.context},
          {"devices", p.query.devices},
          {"dtype", p.query.dtype},
          {"tokens_per_s", p.tokens_per_s},
          {"step_ms", p.step_s * 1e3},
          {"memory_ms", p.memory_s * 1e3},
          {"compute_ms", p.compute_s * 1e3},
          {"overhead_ms", p.overhead_s * 1e3},
          {"experts_touched", p.experts_touched},
          {"weight_bytes_read", p.weight_bytes_read},
          {"kv_cache_bytes", p.cache_bytes},
          {"weight_bytes", p.weight_bytes},
          {"device_bytes", p.device_bytes},
          {"fits", p.fits}};
}

}  // namespace moe::plan

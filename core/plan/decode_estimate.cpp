#include "plan/decode_estimate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "plan/attention_counts.h"
#include "plan/config_estimates.h"
#include "plan/op_counts.h"

namespace moe::plan {

DecodePrediction predict_decode(const protocol::RunConfig& c, const HardwareProfile& profile,
                                const DecodeQuery& query) {
  if (c.model.kind != protocol::ModelKind::Decoder) {
    throw std::invalid_argument("decode: only decoders (model.kind \"decoder\") generate");
  }
  if (query.batch < 1 || query.context < 1 || query.devices < 1) {
    throw std::invalid_argument("decode: batch, context and devices must be positive");
  }
  DecodePrediction out;
  out.query = query;
  if (out.query.dtype.empty()) out.query.dtype = protocol::to_string(c.train.dtype);
  const auto dtype = protocol::enum_from_name<protocol::Dtype>(out.query.dtype);
  if (!dtype) throw std::invalid_argument("decode: no dtype \"" + out.query.dtype + "\"");
  const double elem = double(dtype_bytes(*dtype));
  const double batch = double(query.batch), devices = double(query.devices);

  const ParameterEstimate params = estimate_parameters(c);
  const double moe_layers = double(moe_layer_count(c));
  const double experts = double(c.moe.experts);
  const double k = double(std::min<int64_t>(c.moe.top_k, c.moe.experts));
  out.experts_touched = experts * (1.0 - std::pow(1.0 - k / experts, batch));
  // A token's embedding row is all it reads of an untied embedding table.
  const double table = c.model.tie_embeddings ? 0.0 : double(c.model.vocab) * double(c.model.dim);
  const double per_expert = moe_layers > 0 ? params.experts / (moe_layers * experts) : 0.0;
  out.weight_bytes = params.total() * elem;
  out.weight_bytes_read =
      (params.dense - table + moe_layers * out.experts_touched * per_expert) * elem;
  const double cache_per_position = kv_cache_elements_per_token(c) * double(c.model.layers) * elem;
  out.cache_bytes = batch * double(query.context) * cache_per_position;
  out.cache_bytes_read = out.cache_bytes;

  out.flops = batch * (2.0 * (params.active - table) +
                       double(c.model.layers) * decode_attention_flops_per_token(c, query.context));
  const auto& device = profile.device;
  out.memory_s =
      (out.weight_bytes_read + out.cache_bytes_read) / (devices * device.memory_bandwidth);
  out.compute_s = out.flops / (devices * profile.gemm_rate(query.batch, c.model.dim,
                                                           std::max<int64_t>(c.moe.hidden, 1),
                                                           out.query.dtype));
  const double ops =
      dense_ops(c) + moe_layers * (kGateOps + kDispatchOps + kCombineOps + expert_ops(c));
  out.overhead_s = ops * device.op_overhead_s;
  out.step_s = std::max(out.memory_s, out.compute_s) + out.overhead_s;
  out.tokens_per_s = batch / out.step_s;
  out.device_bytes = (out.weight_bytes + out.cache_bytes) / devices + device.runtime_bytes;
  out.fits = out.device_bytes <= device.memory_bytes;
  return out;
}

}  // namespace moe::plan

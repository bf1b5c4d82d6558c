#include "layer/token_dispatcher.h"

namespace moe::layer {

const TokenDispatcher& token_dispatcher_for(const ExpertPlacementOnGroup& p) {
  static const LocalDispatcher local;
  static const GatheredWeightsDispatcher gathered;
  static const AllToAllDispatcher all_to_all;
  static const OverlappedAllToAllDispatcher overlapped;
  static const ShardedDispatcher sharded;
  if (!p.sharded || p.group == nullptr || p.group->is_single()) return local;
  if (p.r == 0) return gathered;
  if (p.partition.shards > 1) return sharded;
  return p.overlap_degree > 1 ? static_cast<const TokenDispatcher&>(overlapped) : all_to_all;
}

}  // namespace moe::layer

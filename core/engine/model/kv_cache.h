#pragma once
// Key/value caches for generation (docs/INFERENCE.md): each attention layer keeps what its past
// positions contribute to later queries, so that a decode step computes one position instead of
// the whole prefix. The tensors are allocated once, for every slot's whole sequence, on the first
// append. A cache has one or more slots (sequences of their own lengths): a forward pass's batch
// rows continue the slots named by DecoderCache::use_rows, each at its own position.
#include <torch/torch.h>

#include <initializer_list>
#include <vector>

#include "model/rotary.h"

namespace moe::model {

// Which slots a forward pass's batch rows continue, and from where.
struct CacheRows {
  std::vector<int64_t> slots;   // row i continues slot slots[i]
  std::vector<int64_t> starts;  // row i's first new position (its slot's length before the pass)
  at::Tensor start_positions;   // starts as int64 [rows] on the model's device (ragged rows only)
  bool ragged() const { return start_positions.defined(); }
};

// What an attention layer reads after an append: each stream's positions 0 .. the longest row's
// end, per row, and where each row's new positions start.
struct CachedPositions {
  std::vector<at::Tensor> streams;
  const CacheRows* rows = nullptr;
};

// One attention layer's cache: one or more streams (GQA: keys and values; MLA: the compressed
// latent and the shared rotary key), each [slots, ...] with positions along one dimension.
class KvCache {
 public:
  KvCache(int64_t capacity, int64_t slots) : capacity_(capacity), lengths_(slots, 0) {}
  // Positions a slot holds: its next query's position.
  int64_t length(int64_t slot = 0) const { return lengths_[static_cast<size_t>(slot)]; }
  // Writes `fresh` (one tensor per stream; row i and `count` positions along `dim` for slot
  // rows.slots[i]) after the positions each slot holds. Positions past a row's own end read as
  // zeros (the attention masks them).
  CachedPositions append(std::initializer_list<at::Tensor> fresh, int64_t dim,
                         const CacheRows& rows);
  // The slot starts a new sequence.
  void clear(int64_t slot) { lengths_[static_cast<size_t>(slot)] = 0; }

 private:
  int64_t capacity_;
  std::vector<int64_t> lengths_;
  std::vector<at::Tensor> streams_;
};

// What one attention layer gets in a forward pass with a cache.
struct LayerCache {
  KvCache& kv;
  const CacheRows& rows;
};

// A decoder's caches, one per layer, the rows of the next forward pass, and the rotary tables of
// every position up to capacity.
struct DecoderCache {
  DecoderCache(int64_t layers, int64_t capacity, int64_t slots = 1);
  int64_t capacity;
  int64_t slots;
  std::vector<KvCache> layers;
  RotaryTables rotary;  // filled by the model on first use
  CacheRows rows;       // the slots from use_rows (every slot in order by default); begin_pass
                        // fills the starts

  // Slot 0's length (one sequence).
  int64_t length(int64_t slot = 0) const {
    return layers.empty() ? 0 : layers.front().length(slot);
  }
  // The next forward passes' batch rows continue these slots (distinct, each below `slots`).
  void use_rows(std::vector<int64_t> row_slots);
  // Before a forward pass (the model calls it): each row's start from its slot's length.
  void begin_pass(const at::Device& device);
  // The slot starts a new sequence in every layer.
  void clear(int64_t slot);
};

}  // namespace moe::model

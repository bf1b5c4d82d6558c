#include "model/kv_cache.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace moe::model {

namespace {

// Rows that continue slots first .. first + n - 1 in order: the cache's own views serve them.
bool consecutive(const std::vector<int64_t>& slots) {
  for (size_t i = 1; i < slots.size(); ++i) {
    if (slots[i] != slots[0] + static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

CachedPositions KvCache::append(std::initializer_list<at::Tensor> fresh, int64_t dim,
                                const CacheRows& rows) {
  const int64_t count = fresh.begin()->size(dim);
  const int64_t row_count = fresh.begin()->size(0);
  if (row_count != static_cast<int64_t>(rows.slots.size())) {
    throw std::invalid_argument("KV cache: " + std::to_string(row_count) + " rows, " +
                                std::to_string(rows.slots.size()) + " slots named");
  }
  int64_t end = 0;
  for (int64_t slot : rows.slots) {
    const int64_t length = lengths_[static_cast<size_t>(slot)];
    if (length + count > capacity_) {
      throw std::length_error("KV cache: " + std::to_string(length + count) +
                              " positions, capacity " + std::to_string(capacity_));
    }
    end = std::max(end, length + count);
  }
  if (streams_.empty()) {
    for (const auto& t : fresh) {
      auto shape = t.sizes().vec();
      shape[0] = static_cast<int64_t>(lengths_.size());
      shape[static_cast<size_t>(dim)] = capacity_;
      // Zeros, not empty: masked positions still meet the values in a matmul (0 * NaN is NaN).
      streams_.push_back(at::zeros(shape, t.options()));
    }
  }
  const bool in_order = consecutive(rows.slots);
  CachedPositions held;
  held.rows = &rows;
  size_t i = 0;
  for (const auto& t : fresh) {
    auto& stream = streams_[i++];
    if (in_order && !rows.ragged()) {  // one write for every row
      stream.narrow(0, rows.slots[0], row_count)
          .narrow(dim, lengths_[static_cast<size_t>(rows.slots[0])], count)
          .copy_(t);
    } else {
      for (int64_t r = 0; r < row_count; ++r) {
        const int64_t slot = rows.slots[static_cast<size_t>(r)];
        stream.narrow(0, slot, 1)
            .narrow(dim, lengths_[static_cast<size_t>(slot)], count)
            .copy_(t.narrow(0, r, 1));
      }
    }
    const auto mine =
        in_order ? stream.narrow(0, rows.slots[0], row_count)
                 : stream.index_select(0, at::tensor(rows.slots, at::kLong).to(stream.device()));
    held.streams.push_back(mine.narrow(dim, 0, end));
  }
  for (int64_t slot : rows.slots) lengths_[static_cast<size_t>(slot)] += count;
  return held;
}

DecoderCache::DecoderCache(int64_t layer_count, int64_t capacity_, int64_t slots_)
    : capacity(capacity_), slots(slots_) {
  layers.reserve(static_cast<size_t>(layer_count));
  for (int64_t i = 0; i < layer_count; ++i) layers.emplace_back(capacity_, slots_);
  rows.slots.resize(static_cast<size_t>(slots_));
  std::iota(rows.slots.begin(), rows.slots.end(), 0);
}

void DecoderCache::use_rows(std::vector<int64_t> row_slots) {
  if (row_slots.empty()) throw std::invalid_argument("KV cache: no rows");
  for (int64_t slot : row_slots) {
    if (slot < 0 || slot >= slots) {
      throw std::out_of_range("KV cache: slot " + std::to_string(slot) + " of " +
                              std::to_string(slots));
    }
  }
  std::vector<int64_t> sorted = row_slots;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw std::invalid_argument("KV cache: a slot named twice");
  }
  rows.slots = std::move(row_slots);
}

void DecoderCache::begin_pass(const at::Device& device) {
  rows.starts.clear();
  for (int64_t slot : rows.slots) rows.starts.push_back(length(slot));
  const bool equal = std::all_of(rows.starts.begin(), rows.starts.end(),
                                 [&](int64_t s) { return s == rows.starts.front(); });
  rows.start_positions = equal ? at::Tensor() : at::tensor(rows.starts, at::kLong).to(device);
}

void DecoderCache::clear(int64_t slot) {
  for (auto& layer : layers) layer.clear(slot);
}

}  // namespace moe::model

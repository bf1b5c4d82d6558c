#pragma once
// data.kind "megatron": a Megatron-LM indexed data set (the "MMIDIDX" format of its
// indexed_dataset.py), read directly. data.path is the prefix of PREFIX.idx and PREFIX.bin.
//
// PREFIX.idx (little-endian): "MMIDIDX\0\0"; uint64 version 1; uint8 dtype code (1 uint8, 2 int8,
// 3 int16, 4 int32, 5 int64, 6 float64, 7 float32, 8 uint16); uint64 sequence count S; uint64
// document-index count D; int32 sizes[S] (tokens per sequence); int64 pointers[S] (byte offset of
// each sequence in PREFIX.bin); int64 document_index[D] (0, then the sequence after each
// document's last; the last entry is S); then, in multimodal sets only, int8 modes[S].
// PREFIX.bin holds the tokens. The stream is the sequences in order, as they are: Megatron's
// preprocessing puts the end-of-document token into the data (--append-eod), nothing is added.
#include <cstdint>
#include <memory>
#include <string>

#include "data/token_stream.h"

namespace moe::data {

struct MegatronSummary {
  int64_t sequences = 0, documents = 0, tokens = 0;
  int64_t max_id = -1;
  std::string dtype;  // "uint16", "int32", ...
};

// The data set, checked: DataError naming PREFIX.idx or PREFIX.bin for a wrong magic, version or
// dtype (floats are not token ids), a size that disagrees with the counts, a sequence outside
// PREFIX.bin, a document index out of order, a negative token id.
std::shared_ptr<const TokenStream> open_megatron(const std::string& prefix,
                                                 MegatronSummary* summary);

}  // namespace moe::data

// The RunConfig key table of docs/PROTOCOL.md, built from what the code already knows: the keys,
// types, labels, meanings and choices from the editor's field catalog, the defaults from
// moe_protocol's RunConfig, and the allowed range from moe_protocol's validator. The document is
// checked against this table, so the three cannot drift apart from what it says.
#pragma once

#include <string>
#include <vector>

namespace moe::docs {

struct KeyRow {
  std::string key;            // "moe.top_k", as written in --set and in messages
  std::string type;           // integer, number, boolean or string
  std::string default_value;  // the default as JSON ("2", "1.0", "\"gelu\"")
  std::string allowed;        // the choices, or the validator's rule ("between 1 and 65536")
  std::string label;          // the editor's label
  std::string meaning;        // the editor's tooltip without its first line (the key)
};

// One row per RunConfig key, in the config's key order.
std::vector<KeyRow> key_rows();

// The rows as a Markdown table, header included, each line ending in '\n'.
std::string key_table_markdown(const std::vector<KeyRow>& rows);

}  // namespace moe::docs

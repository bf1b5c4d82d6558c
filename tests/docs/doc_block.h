// The generated part of a Markdown document: the lines between a BEGIN and an END marker. Finds
// it, replaces it, and says in words how a document's copy differs from the generated one.
#pragma once

#include <optional>
#include <string>

namespace moe::docs {

inline constexpr const char* kBeginMarker =
    "<!-- BEGIN generated RunConfig keys: do not edit by hand -->";
inline constexpr const char* kEndMarker = "<!-- END generated RunConfig keys -->";

// The text between the marker lines (not including them), or nothing when either marker is
// missing, repeated or out of order.
std::optional<std::string> extract_block(const std::string& document);

// `document` with the text between the markers replaced by `block`; nothing when the markers
// are not found as extract_block needs them.
std::optional<std::string> replace_block(const std::string& document, const std::string& block);

// "" when `documented` equals `generated`; else one line per difference, naming the key of each
// table row that differs, is missing or is extra (rows are keyed by their first cell).
std::string describe_differences(const std::string& documented, const std::string& generated);

}  // namespace moe::docs

#include "launch/slurm_lists.h"

#include <stdexcept>

namespace moe::launch {
namespace {

// More hosts than any cluster has: a list expanding past it is a typo ("[1-1000000000]").
constexpr size_t kMaxHosts = 1 << 20;

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

int64_t parse_count(const std::string& s, const std::string& what) {
  if (!all_digits(s) || s.size() > 9)
    throw std::invalid_argument(what + " '" + s + "' is not a count");
  return std::stoll(s);
}

// Splits at commas outside brackets.
std::vector<std::string> split_top_level(const std::string& list) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0 || depth > 1) throw std::invalid_argument("unbalanced brackets");
    if (c == ',' && depth == 0)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  if (depth != 0) throw std::invalid_argument("unbalanced brackets");
  for (const auto& p : parts)
    if (p.empty()) throw std::invalid_argument("empty entry");
  return parts;
}

// "01-04,07" -> 01 02 03 04 07, each number keeping the width of its range's lower bound.
std::vector<std::string> expand_ranges(const std::string& ranges) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= ranges.size()) {
    size_t end = ranges.find(',', start);
    if (end == std::string::npos) end = ranges.size();
    const std::string range = ranges.substr(start, end - start);
    const size_t dash = range.find('-');
    const std::string lo = range.substr(0, dash);
    const std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
    const int64_t first = parse_count(lo, "range bound"), last = parse_count(hi, "range bound");
    if (last < first) throw std::invalid_argument("range '" + range + "' runs backwards");
    if (out.size() + static_cast<size_t>(last - first) >= kMaxHosts)
      throw std::invalid_argument("more than " + std::to_string(kMaxHosts) + " hosts");
    for (int64_t n = first; n <= last; ++n) {
      std::string digits = std::to_string(n);
      if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');
      out.push_back(digits);
    }
    start = end + 1;
  }
  return out;
}

// One entry of the top-level list: text with bracket groups, expanded to every combination.
std::vector<std::string> expand_name(const std::string& name) {
  std::vector<std::string> names{""};
  size_t pos = 0;
  while (pos < name.size()) {
    const size_t open = name.find('[', pos);
    const std::string text = name.substr(pos, open - pos);
    for (auto& n : names) n += text;
    if (open == std::string::npos) break;
    const size_t close = name.find(']', open);
    std::vector<std::string> combined;
    for (const auto& prefix : names)
      for (const auto& part : expand_ranges(name.substr(open + 1, close - open - 1))) {
        if (combined.size() >= kMaxHosts)
          throw std::invalid_argument("more than " + std::to_string(kMaxHosts) + " hosts");
        combined.push_back(prefix + part);
      }
    names = std::move(combined);
    pos = close + 1;
  }
  return names;
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& list) {
  std::vector<std::string> hosts;
  for (const auto& entry : split_top_level(list)) {
    auto names = expand_name(entry);
    if (hosts.size() + names.size() > kMaxHosts)
      throw std::invalid_argument("more than " + std::to_string(kMaxHosts) + " hosts");
    hosts.insert(hosts.end(), names.begin(), names.end());
  }
  return hosts;
}

std::vector<int64_t> expand_tasks_per_node(const std::string& list) {
  std::vector<int64_t> counts;
  for (const auto& entry : split_top_level(list)) {
    const size_t paren = entry.find("(x");
    const int64_t tasks = parse_count(entry.substr(0, paren), "task count");
    int64_t repeat = 1;
    if (paren != std::string::npos) {
      if (entry.back() != ')') throw std::invalid_argument("'" + entry + "' lacks its ')'");
      repeat = parse_count(entry.substr(paren + 2, entry.size() - paren - 3), "repeat count");
    }
    if (counts.size() + static_cast<size_t>(repeat) > kMaxHosts)
      throw std::invalid_argument("more than " + std::to_string(kMaxHosts) + " nodes");
    counts.insert(counts.end(), static_cast<size_t>(repeat), tasks);
  }
  return counts;
}

}  // namespace moe::launch

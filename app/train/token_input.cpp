#include "token_input.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "train/input_error.h"

namespace moe::train {

std::vector<std::vector<int64_t>> read_token_rows(const std::string& path, int64_t vocab) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_array() || j.empty()) {
    throw InputError(path + ": expected a non-empty JSON array of non-empty arrays of token ids");
  }
  std::vector<std::vector<int64_t>> rows;
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& row = j[i];
    const std::string where = path + ": row " + std::to_string(i);
    if (!row.is_array() || row.empty()) throw InputError(where + ": not a non-empty array of ids");
    auto& ids = rows.emplace_back();
    for (size_t k = 0; k < row.size(); ++k) {
      const auto& v = row[k];
      if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= vocab) {
        throw InputError(where + ", position " + std::to_string(k) + ": " + v.dump() +
                         " is not a token id below the vocabulary size " + std::to_string(vocab));
      }
      ids.push_back(v.get<int64_t>());
    }
  }
  return rows;
}

at::Tensor read_token_file(const std::string& path, int64_t vocab) {
  const auto rows = read_token_rows(path, vocab);
  const int64_t b = static_cast<int64_t>(rows.size()), t = static_cast<int64_t>(rows[0].size());
  auto tokens = at::empty({b, t}, at::kLong);
  for (int64_t i = 0; i < b; ++i) {
    const auto& row = rows[static_cast<size_t>(i)];
    if (static_cast<int64_t>(row.size()) != t) {
      throw InputError(path + ": row " + std::to_string(i) + " must be an array of " +
                       std::to_string(t) + " ids (rows are of equal length)");
    }
    std::copy(row.begin(), row.end(), tokens[i].data_ptr<int64_t>());
  }
  return tokens;
}

}  // namespace moe::train

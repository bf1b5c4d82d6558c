// The shipped profiles (compiled in from resources/profiles by embed_profiles.cmake) and
// `--profile` lookup: a shipped name, NAME+NETWORK, or a file.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "plan/hardware_profile.h"
#include "plan/profile_fields.h"

namespace moe::plan {

const std::vector<std::pair<std::string, std::string>>& embedded_profiles();  // profile_data.cpp

namespace {

std::vector<std::string> names_of_kind(const std::string& kind) {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded_profiles()) {
    const auto doc = nlohmann::json::parse(text, nullptr, false, true);
    if (doc.is_object() && doc.value("kind", std::string()) == kind) names.push_back(name);
  }
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

const std::string* shipped_profile_text(const std::string& name) {
  for (const auto& [n, text] : embedded_profiles()) {
    if (n == name) return &text;
  }
  return nullptr;
}

std::vector<std::string> shipped_profile_names() {
  return names_of_kind("device");
}
std::vector<std::string> shipped_network_names() {
  return names_of_kind("network");
}

HardwareProfile load_profile(const std::string& name_or_file) {
  const auto plus = name_or_file.find('+');
  const std::string device = name_or_file.substr(0, plus);
  const std::string* shipped = shipped_profile_text(device);
  if (!shipped) {
    if (name_or_file.find('/') == std::string::npos &&
        name_or_file.find(".json") == std::string::npos) {
      throw std::invalid_argument("no profile \"" + name_or_file + "\": shipped ones are " +
                                  joined(shipped_profile_names()) + " (with +" +
                                  joined(shipped_network_names()) + "), or give a profile file");
    }
    return parse_profile(read_file(name_or_file), name_or_file);
  }
  HardwareProfile p = parse_profile(*shipped, device);
  if (plus == std::string::npos) return p;
  const std::string network = name_or_file.substr(plus + 1);
  const std::string* net = shipped_profile_text(network);
  const auto doc = net ? nlohmann::json::parse(*net, nullptr, false, true) : nlohmann::json();
  if (!doc.is_object() || doc.value("kind", std::string()) != "network") {
    throw std::invalid_argument("no network profile \"" + network + "\": shipped ones are " +
                                joined(shipped_network_names()));
  }
  p.inter_node = link_from_json(doc["inter_node"], network + ": /inter_node");
  p.name = name_or_file;
  return p;
}

}  // namespace moe::plan

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

const std::vector<std::pair<std::string, std::string>>& embeddedProfiles();  // profile_data.cpp

namespace {

std::vector<std::string> namesOfKind(const std::string& kind) {
  std::vector<std::string> names;
  for (const auto& [name, text] : embeddedProfiles()) {
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

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

const std::string* shippedProfileText(const std::string& name) {
  for (const auto& [n, text] : embeddedProfiles()) {
    if (n == name) return &text;
  }
  return nullptr;
}

std::vector<std::string> shippedProfileNames() {
  return namesOfKind("device");
}
std::vector<std::string> shippedNetworkNames() {
  return namesOfKind("network");
}

HardwareProfile loadProfile(const std::string& name_or_file) {
  const auto plus = name_or_file.find('+');
  const std::string device = name_or_file.substr(0, plus);
  const std::string* shipped = shippedProfileText(device);
  if (!shipped) {
    if (name_or_file.find('/') == std::string::npos &&
        name_or_file.find(".json") == std::string::npos) {
      throw std::invalid_argument("no profile \"" + name_or_file + "\": shipped ones are " +
                                  joined(shippedProfileNames()) + " (with +" +
                                  joined(shippedNetworkNames()) + "), or give a profile file");
    }
    return parseProfile(readFile(name_or_file), name_or_file);
  }
  HardwareProfile p = parseProfile(*shipped, device);
  if (plus == std::string::npos) return p;
  const std::string network = name_or_file.substr(plus + 1);
  const std::string* net = shippedProfileText(network);
  const auto doc = net ? nlohmann::json::parse(*net, nullptr, false, true) : nlohmann::json();
  if (!doc.is_object() || doc.value("kind", std::string()) != "network") {
    throw std::invalid_argument("no network profile \"" + network + "\": shipped ones are " +
                                joined(shippedNetworkNames()));
  }
  p.inter_node = linkFromJson(doc["inter_node"], network + ": /inter_node");
  p.name = name_or_file;
  return p;
}

}  // namespace moe::plan

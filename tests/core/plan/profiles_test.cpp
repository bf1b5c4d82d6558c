// Hardware profiles: every shipped one parses, NAME+NETWORK swaps the inter-node link, files
// round-trip through profile_json, and a bad figure is named with its JSON pointer.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "plan/hardware_profile.h"

namespace moe::plan {
namespace {

std::string errorOf(const std::string& text) {
  try {
    parse_profile(text, "p.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PlanProfiles, ShippedOnesParse) {
  const auto devices = shipped_profile_names();
  EXPECT_GE(devices.size(), 5u);
  for (const auto& name : devices) {
    const HardwareProfile p = load_profile(name);
    EXPECT_GT(p.device.peak_flops_bfloat16, 1e14) << name;
    EXPECT_GT(p.device.memory_bytes, 1e10) << name;
    EXPECT_EQ(p.device.devices_per_node, 8) << name;
    EXPECT_GT(p.inter_node.all_to_all_bandwidth, 1e9) << name;
  }
  EXPECT_GE(shipped_network_names().size(), 4u);
}

TEST(PlanProfiles, NetworkSuffixSwapsTheInterNodeLink) {
  const HardwareProfile ndr = load_profile("h100-sxm");
  const HardwareProfile hdr = load_profile("h100-sxm+ib-hdr");
  EXPECT_EQ(ndr.inter_node.name, "InfiniBand NDR");
  EXPECT_EQ(hdr.inter_node.name, "InfiniBand HDR");
  EXPECT_DOUBLE_EQ(hdr.inter_node.all_to_all_bandwidth * 2, ndr.inter_node.all_to_all_bandwidth);
  EXPECT_EQ(hdr.name, "h100-sxm+ib-hdr");
  EXPECT_THROW(load_profile("h100-sxm+carrier-pigeon"), std::invalid_argument);
  EXPECT_THROW(load_profile("tpu-v9"), std::invalid_argument);
}

TEST(PlanProfiles, FilesRoundTrip) {
  HardwareProfile p = load_profile("a100-sxm");
  p.device.gemm_rates = {{512, 256, 1024, 1, 1, "float32", 1.5e11, 1.8e11},
                         {512, 256, 1024, 8, 1, "float32", 1e11, 0, /*expert_ffn=*/true}};
  p.intra_node.push_back({"four", 4, 1e-4, 2e9, 3e-4, 1e9});
  const std::string path = testing::TempDir() + "/measured.json";
  std::ofstream(path) << profile_json(p);
  const HardwareProfile back = load_profile(path);
  EXPECT_EQ(back.name, p.name);
  ASSERT_EQ(back.device.gemm_rates.size(), 2u);
  EXPECT_FALSE(back.device.gemm_rates[0].expert_ffn);
  EXPECT_TRUE(back.device.gemm_rates[1].expert_ffn);
  EXPECT_DOUBLE_EQ(back.device.gemm_rates[0].flops_per_s, 1.5e11);
  EXPECT_DOUBLE_EQ(back.device.gemm_rates[0].backward_flops_per_s, 1.8e11);
  EXPECT_EQ(back.intra_node_for(4).name, "four");
  EXPECT_EQ(back.intra_node_for(8).name, p.intra_node[0].name);
  EXPECT_DOUBLE_EQ(back.inter_node.all_reduce_bandwidth, p.inter_node.all_reduce_bandwidth);
  std::remove(path.c_str());
}

TEST(PlanProfiles, BadFiguresAreNamed) {
  std::string text = profile_json(load_profile("h100-sxm"));
  const auto at = text.find("\"memory_bandwidth\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("\"memory_bandwidth\"").size(), "\"memory_bandwith\"");
  EXPECT_NE(errorOf(text).find("p.json: /device/memory_bandwidth: missing"), std::string::npos)
      << errorOf(text);
  EXPECT_NE(errorOf("{").find("p.json: not JSON"), std::string::npos);
  HardwareProfile with_rate = load_profile("h100-sxm");
  with_rate.device.gemm_rates = {{512, 256, 1024, 8, 1, "float32", 1e11, 0, true}};
  std::string bad_op = profile_json(with_rate);
  bad_op.replace(bad_op.find("\"expert_ffn\""), 12, "\"expert-ffn\"");
  EXPECT_NE(errorOf(bad_op).find("/device/gemm_rates/0/op: expected"), std::string::npos)
      << errorOf(bad_op);
  EXPECT_NE(errorOf(R"({"schema": 1, "kind": "network"})").find("/kind"), std::string::npos);
  try {
    load_profile("/nonexistent/x.json");
    ADD_FAILURE() << "a missing file loaded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json: cannot be read"), std::string::npos);
  }
}

}  // namespace
}  // namespace moe::plan

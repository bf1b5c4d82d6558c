// Byte-exact compatibility with the reference safetensors format: hand-assembled files.

#include <cstring>

#include <nlohmann/json.hpp>

#include "safetensors_test_util.h"

namespace moe::io::test {
namespace {

// {"a": U8 scalar 7, "b": I16 [1, -2]} with metadata {format: pt, step: 12}, as the reference
// implementation lays it out: u64 LE header length, compact JSON with "__metadata__" first and
// fields in the order dtype, shape, data_offsets, space padding to a multiple of 8, then the data.
const std::string kHeader = R"({"__metadata__":{"format":"pt","step":"12"},)"
                            R"("a":{"dtype":"U8","shape":[],"data_offsets":[0,1]},)"
                            R"("b":{"dtype":"I16","shape":[2],"data_offsets":[1,5]}})"
                            "    ";  // 148 bytes of JSON + 4 spaces = 152 = 0x98
const std::string kLength("\x98\0\0\0\0\0\0\0", 8);
const std::string kData("\x07\x01\x00\xfe\xff", 5);  // 7 | 1 | -2 (little-endian int16)

TEST_F(SafetensorsTest, WriterProducesTheReferenceByteLayout) {
  ASSERT_EQ(kHeader.size(), 152u);
  const TensorMap tensors{{"b", at::tensor({int16_t{1}, int16_t{-2}})},
                          {"a", at::scalar_tensor(7, at::kByte)}};
  write_safetensors(path("k.safetensors"), tensors, {{"step", "12"}, {"format", "pt"}});
  const std::string bytes = read_bytes(path("k.safetensors"));
  EXPECT_EQ(bytes, kLength + kHeader + kData);
}

TEST_F(SafetensorsTest, ReaderReadsTheHandAssembledFile) {
  const std::string file = make_raw(kLength + kHeader + kData);
  std::map<std::string, std::string> meta;
  const TensorMap out = read_safetensors(file, &meta);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.at("a").scalar_type(), at::kByte);
  EXPECT_EQ(out.at("a").dim(), 0);
  EXPECT_EQ(out.at("a").item<int>(), 7);
  EXPECT_EQ(out.at("b").scalar_type(), at::kShort);
  EXPECT_TRUE(at::equal(out.at("b"), at::tensor({int16_t{1}, int16_t{-2}})));
  EXPECT_EQ(meta, (std::map<std::string, std::string>{{"format", "pt"}, {"step", "12"}}));
}

TEST_F(SafetensorsTest, WriterUsesSortedNamesContiguousOffsetsAndPadding) {
  const TensorMap tensors{{"zeta", at::ones({3}, at::kDouble)},
                          {"alpha", at::ones({2, 2}, at::kHalf)},
                          {"Mid", at::ones({1}, at::kBool)},
                          {"empty", at::ones({0}, at::kFloat)}};
  write_safetensors(path("o.safetensors"), tensors, {{"k", "v"}});
  const std::string bytes = read_bytes(path("o.safetensors"));
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  EXPECT_EQ(n % 8, 0u);
  ASSERT_LE(8 + n, bytes.size());
  const std::string header = bytes.substr(8, n);
  EXPECT_EQ(header.find_first_of("\n\t"), std::string::npos);  // compact JSON
  const auto j = nlohmann::ordered_json::parse(header);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"__metadata__", "Mid", "alpha", "empty", "zeta"}));
  EXPECT_EQ(j.at("Mid").at("data_offsets").dump(), "[0,1]");
  EXPECT_EQ(j.at("alpha").at("data_offsets").dump(), "[1,9]");
  EXPECT_EQ(j.at("empty").at("data_offsets").dump(), "[9,9]");
  EXPECT_EQ(j.at("zeta").at("data_offsets").dump(), "[9,33]");
  EXPECT_EQ(j.at("alpha").at("dtype"), "F16");
  EXPECT_EQ(j.at("alpha").at("shape").dump(), "[2,2]");
  EXPECT_EQ(bytes.size(), 8 + n + 33);
}

TEST_F(SafetensorsTest, EmptyFileLayout) {
  write_safetensors(path("e.safetensors"), {});
  EXPECT_EQ(read_bytes(path("e.safetensors")), le64(8) + "{}      ");
}

TEST_F(SafetensorsTest, ReaderAcceptsOtherValidLayouts) {
  // The Rust writer orders tensors by dtype alignment, not by name; Python may pretty-print;
  // "__metadata__" may come last or be null. Offsets, not header order, place the data.
  const std::string header =
      "{\n  \"w\": {\"data_offsets\": [0, 8], \"shape\": [2], "
      "\"dtype\": \"F32\"},\n  \"b\": {\"dtype\": \"I8\", \"shape\": [1, 1],"
      " \"data_offsets\": [8, 9]},\n  \"__metadata__\": null\n}";
  std::string data(9, '\0');
  const float w[2] = {1.5f, -3.0f};
  std::memcpy(data.data(), w, 8);
  data[8] = static_cast<char>(-5);
  std::map<std::string, std::string> meta{{"stale", "x"}};
  const TensorMap out = read_safetensors(make_file(header, data), &meta);
  EXPECT_TRUE(meta.empty());
  EXPECT_TRUE(at::equal(out.at("w"), at::tensor({1.5f, -3.0f})));
  EXPECT_EQ(out.at("b").sizes(), at::IntArrayRef({1, 1}));
  EXPECT_EQ(out.at("b").item<int8_t>(), -5);

  // Tensors listed out of offset order.
  const std::string swapped = R"({"second":{"dtype":"U8","shape":[1],"data_offsets":[1,2]},)"
                              R"("first":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})";
  const TensorMap out2 = read_safetensors(make_file(swapped, "\x0a\x0b", "s.safetensors"));
  EXPECT_EQ(out2.at("first").item<int>(), 10);
  EXPECT_EQ(out2.at("second").item<int>(), 11);
}

TEST_F(SafetensorsTest, AllDtypeNamesAreTheReferenceOnes) {
  const std::vector<std::pair<std::string, at::ScalarType>> names{
      {"F64", at::kDouble}, {"F32", at::kFloat}, {"F16", at::kHalf},  {"BF16", at::kBFloat16},
      {"I64", at::kLong},   {"I32", at::kInt},   {"I16", at::kShort}, {"I8", at::kChar},
      {"U8", at::kByte},    {"BOOL", at::kBool}};
  for (const auto& [name, type] : names) {
    SCOPED_TRACE(name);
    write_safetensors(path("d.safetensors"), {{"t", at::zeros({1}, type)}});
    const std::string bytes = read_bytes(path("d.safetensors"));
    EXPECT_NE(bytes.find("\"dtype\":\"" + name + "\""), std::string::npos);
    EXPECT_EQ(read_safetensors(path("d.safetensors")).at("t").scalar_type(), type);
  }
}

}  // namespace
}  // namespace moe::io::test

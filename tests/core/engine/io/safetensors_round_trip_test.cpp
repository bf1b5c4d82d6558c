// Round trips through write_safetensors / read_safetensors, and the writer's file safety.

#include <cmath>
#include <cstring>
#include <limits>

#include "safetensors_test_util.h"

namespace moe::io::test {
namespace {

at::Tensor sample(at::ScalarType type, at::IntArrayRef shape) {
  if (at::isFloatingType(type)) return at::randn(shape, at::TensorOptions().dtype(type));
  if (type == at::kBool) return at::randint(0, 2, shape).to(at::kBool);
  if (type == at::kByte) return at::randint(0, 256, shape).to(at::kByte);
  return at::randint(-128, 128, shape).to(type);
}

// Same dtype, shape and bytes (bit-exact, so NaN payloads and -0.0 count).
void expect_identical(const at::Tensor& actual, const at::Tensor& expected) {
  ASSERT_TRUE(actual.defined());
  EXPECT_EQ(actual.scalar_type(), expected.scalar_type());
  ASSERT_EQ(actual.sizes(), expected.sizes());
  EXPECT_EQ(actual.device(), at::Device(at::kCPU));
  EXPECT_TRUE(actual.is_contiguous());
  const at::Tensor e = expected.contiguous();
  ASSERT_EQ(actual.nbytes(), e.nbytes());
  if (e.nbytes() != 0) {
    EXPECT_EQ(std::memcmp(actual.data_ptr(), e.data_ptr(), e.nbytes()), 0);
  }
}

class DtypeRoundTrip : public SafetensorsTest,
                       public ::testing::WithParamInterface<at::ScalarType> {};

TEST_P(DtypeRoundTrip, ValuesShapeAndDtypeSurvive) {
  at::manual_seed(1);
  const at::ScalarType type = GetParam();
  TensorMap in{{"matrix", sample(type, {3, 5})},
               {"scalar", sample(type, {})},
               {"empty", sample(type, {2, 0, 3})},
               {"cube", sample(type, {2, 3, 4})}};
  const std::string file = path("t.safetensors");
  write_safetensors(file, in);
  const TensorMap out = read_safetensors(file);
  ASSERT_EQ(out.size(), in.size());
  for (const auto& [name, t] : in) {
    SCOPED_TRACE(name);
    ASSERT_EQ(out.count(name), 1u);
    expect_identical(out.at(name), t);
  }
  EXPECT_EQ(out.at("scalar").dim(), 0);
  EXPECT_EQ(out.at("empty").numel(), 0);
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, DtypeRoundTrip,
                         ::testing::Values(at::kDouble, at::kFloat, at::kHalf, at::kBFloat16,
                                           at::kLong, at::kInt, at::kShort, at::kChar, at::kByte,
                                           at::kBool),
                         [](const auto& info) { return std::string(c10::toString(info.param)); });

TEST_F(SafetensorsTest, SpecialFloatBitPatternsSurvive) {
  const float inf = std::numeric_limits<float>::infinity();
  const at::Tensor f =
      at::tensor({0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()});
  const at::Tensor l = at::tensor(
      {std::numeric_limits<int64_t>::min(), int64_t{-1}, std::numeric_limits<int64_t>::max()});
  write_safetensors(path("s.safetensors"), {{"f", f}, {"l", l}});
  const TensorMap out = read_safetensors(path("s.safetensors"));
  expect_identical(out.at("f"), f);
  expect_identical(out.at("l"), l);
}

TEST_F(SafetensorsTest, ZeroDimAndEmptyTensorsRoundTrip) {
  const TensorMap in{{"zero_d", at::scalar_tensor(2.5, at::kFloat)},
                     {"zero_d_long", at::scalar_tensor(7, at::kLong)},
                     {"empty_1d", at::empty({0}, at::kFloat)},
                     {"empty_mid", at::empty({4, 0, 2}, at::kInt)}};
  write_safetensors(path("e.safetensors"), in);
  const TensorMap out = read_safetensors(path("e.safetensors"));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out.at("zero_d").dim(), 0);
  EXPECT_FLOAT_EQ(out.at("zero_d").item<float>(), 2.5f);
  EXPECT_EQ(out.at("zero_d_long").dim(), 0);
  EXPECT_EQ(out.at("zero_d_long").item<int64_t>(), 7);
  EXPECT_EQ(out.at("empty_1d").sizes(), at::IntArrayRef({0}));
  EXPECT_EQ(out.at("empty_mid").sizes(), at::IntArrayRef({4, 0, 2}));
  EXPECT_EQ(out.at("empty_mid").scalar_type(), at::kInt);
}

TEST_F(SafetensorsTest, OnlyEmptyTensorsGiveAnEmptyBuffer) {
  write_safetensors(path("e.safetensors"), {{"a", at::empty({0, 3})}, {"b", at::empty({0})}});
  const std::string bytes = read_bytes(path("e.safetensors"));
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  EXPECT_EQ(bytes.size(), 8 + n);  // no data bytes at all
  const TensorMap out = read_safetensors(path("e.safetensors"));
  EXPECT_EQ(out.at("a").sizes(), at::IntArrayRef({0, 3}));
  EXPECT_EQ(out.at("b").sizes(), at::IntArrayRef({0}));
}

TEST_F(SafetensorsTest, NonContiguousInputsAreStoredContiguously) {
  at::manual_seed(2);
  const at::Tensor base = at::randn({6, 8});
  const TensorMap in{{"transposed", base.t()},
                     {"strided", base.slice(1, 1, 8, 3)},
                     {"narrowed", base.narrow(0, 2, 3)},  // storage offset
                     {"expanded", at::arange(4, at::kInt).unsqueeze(0).expand({3, 4})},
                     {"requires_grad", at::randn({2, 2}).requires_grad_(true)}};
  ASSERT_FALSE(in.at("transposed").is_contiguous());
  ASSERT_FALSE(in.at("strided").is_contiguous());
  ASSERT_FALSE(in.at("expanded").is_contiguous());
  write_safetensors(path("n.safetensors"), in);
  const TensorMap out = read_safetensors(path("n.safetensors"));
  for (const auto& [name, t] : in) {
    SCOPED_TRACE(name);
    expect_identical(out.at(name), t.detach());
    EXPECT_TRUE(at::equal(out.at(name), t.detach()));
  }
  EXPECT_EQ(out.at("expanded").numel(), 12);
}

TEST_F(SafetensorsTest, MetadataRoundTrips) {
  const std::map<std::string, std::string> meta{{"format", "pt"},
                                                {"step", "1200"},
                                                {"empty", ""},
                                                {"quote\"and\\slash", "line\nbreak"},
                                                {"unicode", "\xc3\xa9t\xc3\xa9 \xe2\x9c\x93"}};
  write_safetensors(path("m.safetensors"), {{"w", at::ones({2})}}, meta);
  std::map<std::string, std::string> got{{"stale", "value"}};
  const TensorMap out = read_safetensors(path("m.safetensors"), &got);
  EXPECT_EQ(got, meta);
  EXPECT_TRUE(at::equal(out.at("w"), at::ones({2})));
}

TEST_F(SafetensorsTest, NoMetadataGivesAnEmptyMap) {
  write_safetensors(path("m.safetensors"), {{"w", at::ones({2})}});
  std::map<std::string, std::string> got{{"stale", "value"}};
  read_safetensors(path("m.safetensors"), &got);
  EXPECT_TRUE(got.empty());
}

TEST_F(SafetensorsTest, EmptyTensorMapRoundTrips) {
  write_safetensors(path("z.safetensors"), {}, {{"k", "v"}});
  std::map<std::string, std::string> got;
  EXPECT_TRUE(read_safetensors(path("z.safetensors"), &got).empty());
  EXPECT_EQ(got.at("k"), "v");
}

TEST_F(SafetensorsTest, TutelParameterNamesRoundTrip) {
  // the docs/ROUTING.md parameter names, with a model prefix: dots in names are plain characters.
  const TensorMap in{{"blocks.3.moe.gates.0.wg.weight", at::randn({4, 8})},
                     {"blocks.3.moe.experts.batched_fc1_w", at::randn({4, 16, 8})},
                     {"blocks.3.moe.experts.batched_fc2_bias", at::randn({4, 8})}};
  write_safetensors(path("p.safetensors"), in);
  const TensorMap out = read_safetensors(path("p.safetensors"));
  for (const auto& [name, t] : in) EXPECT_TRUE(at::equal(out.at(name), t)) << name;
}

// --- Writer file safety ---------------------------------------------------------------------

TEST_F(SafetensorsTest, WriterLeavesNoTemporaryFile) {
  write_safetensors(path("w.safetensors"), {{"a", at::ones({3})}});
  EXPECT_EQ(listing(), std::set<std::string>{"w.safetensors"});
}

TEST_F(SafetensorsTest, WriterReplacesAnExistingFile) {
  write_safetensors(path("w.safetensors"), {{"old", at::ones({100})}});
  write_safetensors(path("w.safetensors"), {{"new", at::zeros({2}, at::kLong)}});
  const TensorMap out = read_safetensors(path("w.safetensors"));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(at::equal(out.at("new"), at::zeros({2}, at::kLong)));
  EXPECT_EQ(listing(), std::set<std::string>{"w.safetensors"});
}

// Expects write_safetensors to throw SafetensorsError naming the file and `fragment`.
void expect_write_error(const std::string& file, const TensorMap& tensors,
                        const std::string& fragment,
                        const std::map<std::string, std::string>& meta = {}) {
  try {
    write_safetensors(file, tensors, meta);
    ADD_FAILURE() << "expected SafetensorsError";
  } catch (const SafetensorsError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
  }
}

TEST_F(SafetensorsTest, UnsupportedDtypeDoesNotClobberAnExistingFile) {
  const std::string file = path("keep.safetensors");
  write_safetensors(file, {{"good", at::arange(5, at::kFloat)}});
  const std::string before = read_bytes(file);
  const TensorMap bad{{"a_fine", at::ones({2})}, {"z", at::ones({2}, at::kComplexFloat)}};
  expect_write_error(file, bad, "tensor 'z'");
  EXPECT_EQ(read_bytes(file), before);
  EXPECT_EQ(listing(), std::set<std::string>{"keep.safetensors"});
  EXPECT_TRUE(at::equal(read_safetensors(file).at("good"), at::arange(5, at::kFloat)));
}

TEST_F(SafetensorsTest, UnsupportedDtypeCreatesNoFile) {
  expect_write_error(path("new.safetensors"), {{"c", at::ones({2}, at::kComplexDouble)}},
                     "cannot be stored");
  EXPECT_TRUE(listing().empty());
}

TEST_F(SafetensorsTest, WriterRejectsReservedUndefinedAndSparseTensors) {
  expect_write_error(path("a.safetensors"), {{"__metadata__", at::ones({1})}}, "reserved");
  expect_write_error(path("b.safetensors"), {{"u", at::Tensor()}}, "tensor 'u'");
  expect_write_error(path("c.safetensors"), {{"s", at::ones({2, 2}).to_sparse()}}, "tensor 's'");
  expect_write_error(path("d.safetensors"), {{"bad\xff", at::ones({1})}}, "UTF-8");
  expect_write_error(path("e.safetensors"), {{"w", at::ones({1})}}, "UTF-8", {{"k", "\xc3"}});
  EXPECT_TRUE(listing().empty());
}

TEST_F(SafetensorsTest, WriterFailsCleanlyIntoAMissingDirectory) {
  expect_write_error(path("no/such/dir/x.safetensors"), {{"a", at::ones({1})}}, "cannot create");
  EXPECT_TRUE(listing().empty());
}

TEST_F(SafetensorsTest, WriterRemovesTheTemporaryFileWhenRenameFails) {
  // The target is a non-empty directory: everything is written, then the rename fails.
  std::filesystem::create_directories(path("target/inner"));
  expect_write_error(path("target"), {{"a", at::ones({4})}}, "cannot rename");
  EXPECT_EQ(listing(), std::set<std::string>{"target"});
  EXPECT_TRUE(std::filesystem::is_directory(path("target/inner")));
}

}  // namespace
}  // namespace moe::io::test

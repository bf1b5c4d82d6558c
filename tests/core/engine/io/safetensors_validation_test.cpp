// Every malformed file is a SafetensorsError naming the file (and the tensor or field involved),
// never a crash or a huge allocation.

#include <random>
#include <string>
#include <vector>

#include "safetensors_test_util.h"

namespace moe::io::test {
namespace {

// One F32 [2] tensor "a" at [begin, end) (or whatever the caller puts in).
std::string entry(const std::string& name, const std::string& dtype, const std::string& shape,
                  const std::string& offsets) {
  return "\"" + name + "\":{\"dtype\":" + dtype + ",\"shape\":" + shape +
         ",\"data_offsets\":" + offsets + "}";
}
std::string object(const std::vector<std::string>& entries) {
  std::string out = "{";
  for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? "," : "") + entries[i];
  return out + "}";
}
const std::string kEightBytes(8, '\x01');

TEST_F(SafetensorsTest, MissingFileAndDirectory) {
  expect_read_error(path("absent.safetensors"), {"cannot open"});
  std::filesystem::create_directories(path("dir.safetensors"));
  expect_read_error(path("dir.safetensors"), {"not a regular file"});
}

TEST_F(SafetensorsTest, FileShorterThanTheLengthField) {
  for (int size : {0, 1, 7}) {
    SCOPED_TRACE(size);
    expect_read_error(make_raw(std::string(size, '\0')), {"shorter than the 8-byte"});
  }
}

TEST_F(SafetensorsTest, TruncationAtEveryByteIsAnError) {
  const std::string good = path("good.safetensors");
  write_safetensors(good,
                    {{"x", at::arange(6, at::kFloat).reshape({2, 3})},
                     {"y", at::arange(3, at::kLong)},
                     {"z", at::ones({2}, at::kBool)}},
                    {{"k", "v"}});
  const std::string bytes = read_bytes(good);
  ASSERT_NO_THROW(read_safetensors(good));
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(size);
    expect_read_error(make_raw(bytes.substr(0, size), "cut.safetensors"));
  }
  // The same file with one byte too many is also wrong: trailing data no tensor covers.
  expect_read_error(make_raw(bytes + "x", "long.safetensors"), {"not covered"});
}

TEST_F(SafetensorsTest, HeaderLengthLargerThanTheFile) {
  const std::string header = object({entry("a", "\"F32\"", "[2]", "[0,8]")});
  expect_read_error(make_raw(le64(header.size() + 9) + header + kEightBytes),
                    {"header length", "larger than the rest of the file"});
}

TEST_F(SafetensorsTest, AbsurdHeaderLengths) {
  for (std::uint64_t n : {std::uint64_t{100'000'001}, std::uint64_t{1} << 40,
                          std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    SCOPED_TRACE(n);
    expect_read_error(make_raw(le64(n) + "{}"), {"exceeds the limit"});
  }
}

TEST_F(SafetensorsTest, HeaderThatIsNotJson) {
  for (const std::string& h : {std::string(""), std::string("{\"a\":"), std::string("not json"),
                               std::string("{\"a\":{}}trailing"), std::string("{\"\xff\":1}"),
                               std::string("{}\0\0\0\0\0\0", 8)}) {
    SCOPED_TRACE(h);
    expect_read_error(make_file(h), {"not valid JSON"});
  }
}

TEST_F(SafetensorsTest, HeaderThatIsNotAnObject) {
  for (const char* h : {"[]", "42", "\"str\"", "null"}) {
    SCOPED_TRACE(h);
    expect_read_error(make_file(h), {"not an object"});
  }
}

TEST_F(SafetensorsTest, EntryNotAnObjectOrWithWrongFields) {
  expect_read_error(make_file(R"({"a":5})"), {"tensor 'a'", "not an object"});
  expect_read_error(make_file(R"({"a":[1,2]})"), {"tensor 'a'", "not an object"});
  expect_read_error(make_file(R"({"a":{"dtype":"F32","shape":[2]}})", kEightBytes),
                    {"tensor 'a'", "missing field 'data_offsets'"});
  expect_read_error(make_file(R"({"a":{"shape":[2],"data_offsets":[0,8]}})", kEightBytes),
                    {"tensor 'a'", "missing field 'dtype'"});
  expect_read_error(
      make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"extra":1}})", kEightBytes),
      {"tensor 'a'", "unexpected field 'extra'"});
}

TEST_F(SafetensorsTest, UnknownDtype) {
  for (const char* d : {"\"F8_E4M3\"", "\"float32\"", "\"f32\"", "\"C64\"", "\"\""}) {
    SCOPED_TRACE(d);
    expect_read_error(make_file(object({entry("w", d, "[2]", "[0,8]")}), kEightBytes),
                      {"tensor 'w'", "unknown dtype"});
  }
  expect_read_error(make_file(object({entry("w", "4", "[2]", "[0,8]")}), kEightBytes),
                    {"tensor 'w'", "dtype is not a string"});
}

TEST_F(SafetensorsTest, ShapeNotAListOfNonNegativeIntegers) {
  for (const char* s : {"3", "\"[2]\"", "null", "[-1]", "[2,-2]", "[1.5]", "[2.0]", "[\"2\"]",
                        "[true]", "[null]", "[1e3]"}) {
    SCOPED_TRACE(s);
    expect_read_error(make_file(object({entry("w", "\"F32\"", s, "[0,8]")}), kEightBytes),
                      {"tensor 'w'", "shape"});
  }
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[[2]]", "[0,8]")}), kEightBytes),
                    {"tensor 'w'"});
}

TEST_F(SafetensorsTest, ShapeProductOverflow) {
  for (const char* s :
       {"[4294967296,4294967296]", "[9223372036854775807,2]", "[9223372036854775808]",
        "[18446744073709551615]", "[65536,65536,65536,65536,0]"}) {
    SCOPED_TRACE(s);
    expect_read_error(make_file(object({entry("w", "\"U8\"", s, "[0,8]")}), kEightBytes),
                      {"tensor 'w'", "too many elements"});
  }
  // numel fits in int64 but the byte count does not.
  expect_read_error(
      make_file(object({entry("w", "\"F64\"", "[4611686018427387904]", "[0,8]")}), kEightBytes),
      {"tensor 'w'", "too many bytes"});
}

TEST_F(SafetensorsTest, MalformedDataOffsets) {
  for (const char* o :
       {"[0]", "[0,8,9]", "8", "\"0,8\"", "[-1,7]", "[0,8.0]", "{}", "[0,\"8\"]", "null"}) {
    SCOPED_TRACE(o);
    expect_read_error(make_file(object({entry("w", "\"F32\"", "[2]", o)}), kEightBytes),
                      {"tensor 'w'", "data_offsets"});
  }
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[2]", "[8,0]")}), kEightBytes),
                    {"tensor 'w'", "begin > end"});
}

TEST_F(SafetensorsTest, OffsetsThatDisagreeWithTheShape) {
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[1]", "[0,8]")}), kEightBytes),
                    {"tensor 'w'", "need 4"});
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[3]", "[0,8]")}), kEightBytes),
                    {"tensor 'w'", "need 12"});
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[]", "[0,0]")}), ""),
                    {"tensor 'w'", "need 4"});
}

TEST_F(SafetensorsTest, OffsetsBeyondTheBuffer) {
  // The header claims 1 GiB of data in a tiny file: rejected before any allocation.
  expect_read_error(
      make_file(object({entry("w", "\"U8\"", "[1073741824]", "[0,1073741824]")}), kEightBytes),
      {"tensor 'w'", "beyond the data buffer of 8 bytes"});
  expect_read_error(make_file(object({entry("w", "\"F32\"", "[2]", "[4,12]")}), kEightBytes),
                    {"tensor 'w'", "beyond"});
  expect_read_error(
      make_file(
          object({entry("w", "\"U8\"", "[0]", "[18446744073709551615,18446744073709551615]")}),
          kEightBytes),
      {"tensor 'w'", "beyond"});
}

TEST_F(SafetensorsTest, OverlappingTensors) {
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[2]", "[0,8]"),
                                      entry("b", "\"F32\"", "[2]", "[4,12]")}),
                              std::string(12, '\0')),
                    {"tensor 'b'", "overlaps tensor 'a'"});
  // Two names for the same bytes.
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[2]", "[0,8]"),
                                      entry("b", "\"I32\"", "[2]", "[0,8]")}),
                              kEightBytes),
                    {"overlaps"});
  // An empty tensor placed inside another one.
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[2]", "[0,8]"),
                                      entry("e", "\"F32\"", "[0]", "[4,4]")}),
                              kEightBytes),
                    {"tensor 'e'", "overlaps tensor 'a'"});
}

TEST_F(SafetensorsTest, GapsInTheBuffer) {
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[1]", "[0,4]"),
                                      entry("b", "\"F32\"", "[1]", "[8,12]")}),
                              std::string(12, '\0')),
                    {"tensor 'b'", "gap of 4"});
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[1]", "[4,8]")}), kEightBytes),
                    {"tensor 'a'", "gap"});
  expect_read_error(make_file(object({entry("a", "\"F32\"", "[1]", "[0,4]")}), kEightBytes),
                    {"4 bytes not covered"});
  expect_read_error(make_file("{}", "x"), {"1 bytes not covered"});
}

TEST_F(SafetensorsTest, DuplicateNames) {
  expect_read_error(make_file(object({entry("a", "\"U8\"", "[1]", "[0,1]"),
                                      entry("a", "\"U8\"", "[1]", "[1,2]")}),
                              "ab"),
                    {"duplicate tensor name 'a'"});
  expect_read_error(
      make_file(R"({"a":{"dtype":"U8","dtype":"I8","shape":[1],"data_offsets":[0,1]}})", "a"),
      {"tensor 'a'", "duplicate field 'dtype'"});
  expect_read_error(make_file(R"({"__metadata__":{},"__metadata__":{}})"), {"__metadata__"});
  expect_read_error(make_file(R"({"__metadata__":{"k":"1","k":"2"}})"),
                    {"__metadata__", "duplicate key 'k'"});
}

TEST_F(SafetensorsTest, MetadataNotStringToString) {
  expect_read_error(make_file(R"({"__metadata__":5})"), {"__metadata__"});
  expect_read_error(make_file(R"({"__metadata__":["a"]})"), {"__metadata__"});
  expect_read_error(make_file(R"({"__metadata__":{"k":1}})"), {"__metadata__", "'k'"});
  expect_read_error(make_file(R"({"__metadata__":{"k":null}})"), {"__metadata__", "'k'"});
  expect_read_error(make_file(R"({"__metadata__":{"k":{"x":"y"}}})"), {"__metadata__"});
  expect_read_error(make_file(R"({"__metadata__":{"k":{"x":{}}}})"), {"__metadata__"});
}

TEST_F(SafetensorsTest, BoolBytesOtherThanZeroOrOne) {
  expect_read_error(
      make_file(object({entry("m", "\"BOOL\"", "[3]", "[0,3]")}), std::string("\x01\x00\x02", 3)),
      {"tensor 'm'", "not 0 or 1"});
}

TEST_F(SafetensorsTest, DeeplyNestedHeaderIsRejectedWithoutRecursion) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_read_error(make_file(deep));
  expect_read_error(make_file("{\"a\":" + deep + "}"), {"tensor 'a'"});
}

TEST_F(SafetensorsTest, RandomCorruptionIsEitherReadOrRejected) {
  const std::string good = path("good.safetensors");
  write_safetensors(good,
                    {{"f", at::arange(4, at::kFloat)},
                     {"b", at::ones({3}, at::kBool)},
                     {"s", at::scalar_tensor(3, at::kLong)}},
                    {{"k", "v"}});
  const std::string bytes = read_bytes(good);
  std::mt19937 rng(7);
  int rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bad = bytes;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % bad.size();
      switch (rng() % 3) {
        case 0:
          bad[pos] = static_cast<char>(rng());
          break;  // overwrite
        case 1:
          bad.erase(pos, 1);
          break;  // delete
        default:
          bad.insert(pos, 1, static_cast<char>(rng()));
          break;  // insert
      }
    }
    const std::string file = make_raw(bad, "m.safetensors");
    try {
      read_safetensors(file);
    } catch (const SafetensorsError& e) {
      ++rejected;
      ASSERT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      FAIL() << "iteration " << iter << ": unexpected exception " << e.what();
    }
  }
  EXPECT_GT(rejected, 2000);
}

TEST_F(SafetensorsTest, ErrorsNameTheFileEvenWithOddPaths) {
  const std::string file = make_raw("short", "with space & 'quote'.safetensors");
  const std::string msg = expect_read_error(file);
  EXPECT_NE(msg.find("with space & 'quote'.safetensors"), std::string::npos);
}

}  // namespace
}  // namespace moe::io::test

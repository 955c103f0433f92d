// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hal/utils/heap_buffer.h"
#include "cpu_test_util.h"
#include "hal/utils/buffer_view_text.h"
#include "hal/utils/file_streams.h"

namespace iree_rt::tooling {
namespace {

using hal::utils::FileStreams;
using hal::utils::FormatBufferView;
using hal::utils::ParseBufferView;
using hal::ParseElementType;

using base::Ref;
using base::StatusCode;
using base::StatusOr;
using testing::CpuAllocator;
using testing::IsError;
using testing::IsOk;

std::string Format(const hal::BufferView& view) { return FormatBufferView(view, 1024).value(); }

// Reads one array from |bytes| and prints it, or "error: CODE".
std::string ReadText(const std::string& bytes) {
  std::istringstream stream(bytes);
  StatusOr<Ref<hal::BufferView>> view = ReadNpy(stream, CpuAllocator());
  if (!view.ok()) return std::string("error: ") + base::StatusCodeName(view.status().code());
  return Format(*view.value());
}

std::string WriteToString(const hal::BufferView& view) {
  std::ostringstream stream;
  EXPECT_TRUE(IsOk(WriteNpy(view, stream)));
  return stream.str();
}

Ref<hal::BufferView> Parse(std::string_view spec) {
  StatusOr<Ref<hal::BufferView>> view = ParseBufferView(spec, CpuAllocator());
  EXPECT_TRUE(IsOk(view)) << spec;
  return view.ok() ? view.value() : nullptr;
}

// A v1 file with |dict| as its header text (padded like numpy's) and |data| after it.
std::string MakeNpy(std::string dict, std::string_view data, uint8_t major = 1) {
  const size_t preamble = major == 1 ? 10 : 12;
  dict.append((64 - (preamble + dict.size() + 1) % 64) % 64, ' ');
  dict.push_back('\n');
  std::string file("\x93NUMPY", 6);
  file.push_back(static_cast<char>(major));
  file.push_back('\0');
  const uint32_t length = static_cast<uint32_t>(dict.size());
  for (size_t i = 0; i < preamble - 8; ++i)
    file.push_back(static_cast<char>(length >> (8 * i) & 0xFF));
  return file + dict + std::string(data);
}

std::string Int32Bytes(std::initializer_list<int32_t> values) {
  std::string bytes;
  for (int32_t v : values) bytes.append(reinterpret_cast<const char*>(&v), 4);
  return bytes;
}

TEST(NpyTest, WriteThenReadRoundTrips) {
  const char* specs[] = {
      "f32=1.5",
      "4xf32=1 -2 3.5 NAN",
      "2x3xi32=1 2 3 4 5 6",
      "2x2x2xsi8=1 -2 3 -4 5 -6 7 -8",
      "3xui8=0 128 255",
      "2xi16=-1 32767",
      "2xui16=1 65535",
      "2xsi64=-9223372036854775808 1",
      "1xui64=-1",
      "3xf16=1.5 -0 INF",
      "2xf64=1E+300 -1E-300",
      "3xi1=01 00 01",
      "2xcf64=0000803F00000040 0000000000000000",
      "1xcf128=000000000000F03F0000000000000040",
      "2x*32=01020304 05060708",
      "2x*8=AB CD",
      "0x3xf32",
      "4x0xi8",
  };
  for (const char* spec : specs) {
    Ref<hal::BufferView> view = Parse(spec);
    ASSERT_TRUE(view) << spec;
    std::istringstream stream(WriteToString(*view));
    StatusOr<Ref<hal::BufferView>> back = ReadNpy(stream, CpuAllocator());
    ASSERT_TRUE(IsOk(back)) << spec;
    // Signless integers come back signed (numpy's 'i' kind); everything else unchanged.
    std::string expected = Format(*view);
    std::string got = Format(*back.value());
    for (const char* width : {"8", "16", "32", "64"}) {
      const std::string signless = std::string("xi") + width + "=";
      const size_t at = expected.find(signless);
      if (at != std::string::npos)
        expected.replace(at, signless.size(), std::string("xsi") + width + "=");
    }
    if (expected.starts_with("i")) expected = "s" + expected;
    EXPECT_EQ(got, expected) << spec;
    EXPECT_TRUE(NpyAtEnd(stream)) << spec;
  }
}

TEST(NpyTest, WritesReferenceHeaderLayout) {
  // iree-run-module 3.13.0 --output=@out.npy wrote exactly these bytes for `2x3xi32`: numpy's dict
  // text, space-padded so the data starts at byte 128.
  Ref<hal::BufferView> view = Parse("2x3xi32=0 1 2 3 4 5");
  ASSERT_TRUE(view);
  const std::string bytes = WriteToString(*view);
  const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(bytes.size(), 128u + 24u);
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.substr(10 + dict.size(), 128 - 11 - dict.size()),
            std::string(128 - 11 - dict.size(), ' '));
  EXPECT_EQ(bytes[127], '\n');
  // Rank 0 and rank 1 tuples.
  EXPECT_NE(WriteToString(*Parse("i32=5")).find("'shape': (), }"), std::string::npos);
  EXPECT_NE(WriteToString(*Parse("3xi32=5")).find("'shape': (3,), }"), std::string::npos);
  // A rank-16 header gets no numpy growth padding: it still fits 128 bytes, as the reference's did.
  EXPECT_EQ(WriteToString(*Parse("1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32=0")).size(), 128u + 4u);
}

TEST(NpyTest, DtypeStrings) {
  struct Case {
    const char* type;
    const char* descr;
  };
  // As iree-run-module 3.13.0 writes them (i8, i1 booleans and *8 use '|'; wider opaque uses '<').
  const Case cases[] = {{"i1", "|b1"},  {"i8", "|i1"},   {"si8", "|i1"},  {"ui8", "|u1"},
                        {"i16", "<i2"}, {"ui32", "<u4"}, {"si64", "<i8"}, {"f16", "<f2"},
                        {"f32", "<f4"}, {"f64", "<f8"},  {"cf64", "<c8"}, {"cf128", "<c16"},
                        {"*8", "|V1"},  {"*32", "<V4"}};
  for (const Case& c : cases) {
    EXPECT_EQ(NpyDescr(ParseElementType(c.type).value()).value(), c.descr) << c.type;
  }
  for (const char* type : {"bf16", "f8E4M3FN", "f8E5M2", "i4", "i24", "*12"}) {
    EXPECT_TRUE(IsError(NpyDescr(ParseElementType(type).value()), StatusCode::kUnimplemented))
        << type;
  }
  std::ostringstream out;
  EXPECT_TRUE(IsError(WriteNpy(*Parse("2xbf16=1 2"), out), StatusCode::kUnimplemented));
  EXPECT_TRUE(out.str().empty());
}

TEST(NpyTest, WriteNpyBytesIsOneDimensionalI8) {
  const uint8_t bytes[3] = {1, 0xff, 3};
  std::ostringstream out;
  ASSERT_TRUE(IsOk(WriteNpyBytes(bytes, out)));
  EXPECT_NE(out.str().find("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }"),
            std::string::npos);
  EXPECT_EQ(ReadText(out.str()), "3xsi8=1 -1 3");
  std::ostringstream empty;
  ASSERT_TRUE(IsOk(WriteNpyBytes({}, empty)));
  EXPECT_EQ(ReadText(empty.str()), "0xsi8=");
}

TEST(NpyTest, WriteNpyArrayChecksDataSize) {
  const int64_t shape[2] = {2, 2};
  const uint8_t data[12] = {};
  std::ostringstream out;
  EXPECT_TRUE(IsError(WriteNpyArray(hal::ElementTypes::kFloat32, shape, data, out),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(out.str().empty());
}

TEST(NpyTest, WriteNeedsHostMappableMemory) {
  StatusOr<Ref<hal::utils::HeapBuffer>> buffer =
      hal::utils::HeapBuffer::Allocate(hal::MemoryType::kDeviceLocal, hal::BufferUsage::kDefault,
                                       hal::MemoryAccess::kAll, 8, nullptr);
  ASSERT_TRUE(IsOk(buffer));
  const int64_t shape[1] = {2};
  StatusOr<Ref<hal::BufferView>> view =
      hal::BufferView::Create(Ref<hal::Buffer>(buffer.value()), shape, hal::ElementTypes::kFloat32,
                              hal::Encoding::kDenseRowMajor);
  ASSERT_TRUE(IsOk(view));
  std::ostringstream out;
  EXPECT_TRUE(IsError(WriteNpy(*view.value(), out), StatusCode::kFailedPrecondition));
}

TEST(NpyTest, AcceptsHeaderVariants) {
  const std::string data = Int32Bytes({7, 8});
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", data)),
            "2xsi32=7 8");
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '=i4', 'fortran_order': False, 'shape': (2,)}", data)),
            "2xsi32=7 8");
  EXPECT_EQ(
      ReadText(MakeNpy("{\"shape\": (2, ), \"descr\": \"<u4\", \"fortran_order\": False}", data)),
      "2xui32=7 8");
  EXPECT_EQ(ReadText(MakeNpy("{'descr':'<i4','fortran_order':True,'shape':(2,)}", data)),
            "2xsi32=7 8");
  EXPECT_EQ(
      ReadText(MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,2), }", data, 2)),
      "1x2xsi32=[7 8]");
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '>u1', 'fortran_order': False, 'shape': (), }", "\x05")),
            "ui8=5");
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }", "")),
            "0xi1=");
}

TEST(NpyTest, RejectsMalformedHeaders) {
  const std::string data = Int32Bytes({7, 8});
  const char* malformed[] = {
      "",
      "{",
      "[]",
      "{'descr': '<i4', 'fortran_order': False}",
      "{'descr': '<i4', 'shape': (2,)}",
      "{'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'extra': 1}",
      "{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': false, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2 3)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': [2]}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} x",
      "{'descr': '<i4",
      "{'descr': '<i4\\n', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4' 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
  };
  for (const char* dict : malformed) {
    EXPECT_EQ(ReadText(MakeNpy(dict, data)), "error: INVALID_ARGUMENT") << dict;
  }
  // Bad magic, and data shorter than the shape needs.
  std::string bad_magic = MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", data);
  bad_magic[1] = 'X';
  EXPECT_EQ(ReadText(bad_magic), "error: INVALID_ARGUMENT");
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (3,)}", data)),
            "error: INVALID_ARGUMENT");
  // A header length over the cap is refused before anything is allocated.
  std::string huge("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12);
  EXPECT_EQ(ReadText(huge), "error: INVALID_ARGUMENT");
}

TEST(NpyTest, RejectsUnsupportedButValidFiles) {
  const std::string data = Int32Bytes({7, 8});
  const char* unsupported[] = {
      "{'descr': '>i4', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': True, 'shape': (1, 2)}",
      "{'descr': '<U1', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '|O', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': '<i3', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': '|V32', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)}",
  };
  for (const char* dict : unsupported) {
    EXPECT_EQ(ReadText(MakeNpy(dict, data)), "error: UNIMPLEMENTED") << dict;
  }
  EXPECT_EQ(ReadText(MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", data, 4)),
            "error: UNIMPLEMENTED");
  EXPECT_EQ(ReadText(""), "error: OUT_OF_RANGE");  // no array left
}

// Every strict prefix of a valid file is an error, never a crash or a partial view.
TEST(NpyTest, EveryTruncationIsRejected) {
  const std::string file =
      MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", Int32Bytes({7, 8}));
  ASSERT_EQ(ReadText(file), "2xsi32=7 8");
  for (size_t length = 1; length < file.size(); ++length) {
    EXPECT_EQ(ReadText(file.substr(0, length)), "error: INVALID_ARGUMENT") << length;
  }
}

// Random bit flips, byte replacements and truncations of valid files must give OK or an error
// status: run under ASan/UBSan this checks the parser never reads out of bounds.
TEST(NpyTest, FuzzedFilesNeverCrash) {
  std::vector<std::string> seeds;
  seeds.push_back(
      MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", Int32Bytes({7, 8})));
  seeds.push_back(WriteToString(*Parse("2x2xf16=1 2 3 4")));
  seeds.push_back(WriteToString(*Parse("f64=3")));
  seeds.push_back(MakeNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (1, 1), }",
                          std::string(8, 'a'), 3));
  std::mt19937 rng(12345);
  int ok = 0, errors = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string file = seeds[iteration % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % file.size();
      switch (rng() % 4) {
        case 0:
          file[at] = static_cast<char>(file[at] ^ (1 << (rng() % 8)));
          break;
        case 1:
          file[at] = "{}()',: 0123456789<>|=TFxbifucV-\n"[rng() % 33];
          break;
        case 2:
          file.resize(at);
          break;
        default:
          file.insert(at, 1, static_cast<char>(rng()));
          break;
      }
      if (file.empty()) file = "x";
    }
    std::istringstream stream(file);
    StatusOr<Ref<hal::BufferView>> view = ReadNpy(stream, CpuAllocator());
    if (view.ok()) {
      ++ok;
      EXPECT_LE(view.value()->byte_length(), file.size());
      EXPECT_TRUE(IsOk(FormatBufferView(*view.value(), 64)));
    } else {
      ++errors;
      const StatusCode code = view.status().code();
      EXPECT_TRUE(code == StatusCode::kInvalidArgument || code == StatusCode::kUnimplemented ||
                  code == StatusCode::kOutOfRange)
          << view.status().ToString();
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(errors, 0);
}

TEST(NpyTest, ReadsArraysInSequence) {
  const std::string path = testing::TempPath("multi.npy");
  {
    std::ofstream file(path, std::ios::binary);
    file << WriteToString(*Parse("2xi32=1 2")) << WriteToString(*Parse("1xf32=3.5"))
         << WriteToString(*Parse("i8=7"));
  }
  auto texts = [](const StatusOr<std::vector<Ref<hal::BufferView>>>& views) {
    if (!views.ok()) return std::string("error: ") + base::StatusCodeName(views.status().code());
    std::string joined;
    for (const Ref<hal::BufferView>& view : views.value()) joined += Format(*view) + ";";
    return joined;
  };
  FileStreams streams;
  EXPECT_EQ(texts(ReadNpyInput("@" + path, CpuAllocator(), streams)), "2xsi32=1 2;");
  EXPECT_EQ(texts(ReadNpyInput("+" + path, CpuAllocator(), streams)), "1xf32=3.5;");
  EXPECT_EQ(texts(ReadNpyInput("+" + path, CpuAllocator(), streams)), "si8=7;");
  EXPECT_EQ(texts(ReadNpyInput("+" + path, CpuAllocator(), streams)), "error: OUT_OF_RANGE");
  EXPECT_EQ(texts(ReadNpyInput("@" + path, CpuAllocator(), streams)), "2xsi32=1 2;");
  EXPECT_EQ(texts(ReadNpyInput("*" + path, CpuAllocator(), streams)), "1xf32=3.5;si8=7;");
  FileStreams fresh;
  EXPECT_EQ(texts(ReadNpyInput("*" + path, CpuAllocator(), fresh)), "2xsi32=1 2;1xf32=3.5;si8=7;");
  EXPECT_EQ(texts(ReadNpyInput("+" + path, CpuAllocator(), fresh)), "error: OUT_OF_RANGE");
  EXPECT_EQ(texts(ReadNpyInput("@" + path + ".missing", CpuAllocator(), fresh)),
            "error: NOT_FOUND");
  EXPECT_EQ(texts(ReadNpyInput(path, CpuAllocator(), fresh)), "error: INVALID_ARGUMENT");
  std::remove(path.c_str());
}

#ifdef RT_TOOLING_NUMPY_DIR
std::string ReadFile(const std::string& name) {
  std::ifstream file(std::string(RT_TOOLING_NUMPY_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(file.is_open()) << name;
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// Files written by numpy at build time (gen_npy.py). The expected texts are what iree-run-module
// 3.13.0 printed for `--input=@FILE` on the same files.
TEST(NpyTest, ReadsNumpyFilesAsReference) {
  struct Case {
    const char* file;
    const char* text;
  };
  const Case cases[] = {
      {"i4_2x3.npy", "2x3xsi32=[0 1 2][3 4 5]"},
      {"f8_scalar.npy", "f64=3.25"},
      {"b1_3.npy", "3xi1=01 00 01"},
      {"f4_0x3.npy", "0x3xf32="},
      {"f2_3.npy", "3xf16=1.5 -0 INF"},
      {"u1_2.npy", "2xui8=255 2"},
      {"i8_1.npy", "1xsi64=-1"},
      {"u8_1.npy", "1xui64=18446744073709551615"},
      {"c8_1.npy", "1xcf64=0000803F00000040"},
      {"c16_1.npy", "1xcf128=000000000000F03F0000000000000040"},
      {"V4_1.npy", "1x*32=01020304"},
      {"v2.npy", "4xf32=0 1 2 3"},
      {"v3.npy", "2xsi16=-5 7"},
      {"r16.npy", "1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xsi8=[[[[[[[[[[[[[[[7]]]]]]]]]]]]]]]"},
      {"be_i4.npy", "error: UNIMPLEMENTED"},
      {"fortran.npy", "error: UNIMPLEMENTED"},
      {"unicode.npy", "error: UNIMPLEMENTED"},
      {"object.npy", "error: UNIMPLEMENTED"},
      {"structured.npy", "error: UNIMPLEMENTED"},  // the reference says INVALID_ARGUMENT
  };
  for (const Case& c : cases) EXPECT_EQ(ReadText(ReadFile(c.file)), c.text) << c.file;
}

// For these files numpy's bytes equal iree-run-module's --output=@x.npy bytes (checked with
// cmp), so writing what was read must reproduce the file exactly.
TEST(NpyTest, RewritesNumpyFilesByteForByte) {
  for (const char* name : {"i4_2x3.npy", "f8_scalar.npy", "b1_3.npy", "f4_0x3.npy", "f2_3.npy",
                           "u1_2.npy", "i8_1.npy", "u8_1.npy", "c8_1.npy", "c16_1.npy"}) {
    const std::string original = ReadFile(name);
    std::istringstream in(original);
    StatusOr<Ref<hal::BufferView>> view = ReadNpy(in, CpuAllocator());
    ASSERT_TRUE(IsOk(view)) << name;
    EXPECT_EQ(WriteToString(*view.value()), original) << name;
  }
  // The reference (and this writer) spell a multi-byte void dtype '<V4' where numpy writes '|V4'.
  std::string v4 = ReadFile("V4_1.npy");
  v4.replace(v4.find("'|V4'"), 5, "'<V4'");
  std::istringstream in(ReadFile("V4_1.npy"));
  EXPECT_EQ(WriteToString(*ReadNpy(in, CpuAllocator()).value()), v4);
}

TEST(NpyTest, ReadsNumpyMultiArrayFile) {
  FileStreams streams;
  StatusOr<std::vector<Ref<hal::BufferView>>> views =
      ReadNpyInput(std::string("*") + RT_TOOLING_NUMPY_DIR + "/multi.npy", CpuAllocator(), streams);
  ASSERT_TRUE(IsOk(views));
  ASSERT_EQ(views.value().size(), 3u);
  // iree-run-module 3.13.0 printed these for --input=@multi.npy --input=+multi.npy
  // --input=+multi.npy.
  EXPECT_EQ(Format(*views.value()[0]), "2xsi32=1 2");
  EXPECT_EQ(Format(*views.value()[1]), "1xf32=3.5");
  EXPECT_EQ(Format(*views.value()[2]), "si8=7");
}
#else
TEST(NpyTest, ReadsNumpyFilesAsReference) { GTEST_SKIP() << "no numpy at build time"; }
#endif

}  // namespace
}  // namespace iree_rt::tooling

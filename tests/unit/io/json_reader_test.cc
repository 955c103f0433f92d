// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The strict JSON reader of the safetensors header: what RFC 8259 allows and nothing else.
#include "io/json_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "status_matchers.h"

namespace iree_rt::io {
namespace {

using base::StatusCode;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

TEST(JsonReaderTest, ReadsValues) {
  auto value = ParseJson(
      R"( {"a": [1, -2.5e3, 0, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00",
           "o": {}, "e": [], "big": 18446744073709551615} )",
      "t.json");
  ASSERT_TRUE(IsOk(value));
  ASSERT_EQ(value->type, JsonValue::Type::kObject);
  const JsonValue* a = value->Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 6u);
  uint64_t n = 0;
  EXPECT_TRUE(a->items[0].AsUint64(n));
  EXPECT_EQ(n, 1u);
  EXPECT_FALSE(a->items[1].AsUint64(n));  // negative, fraction, exponent
  EXPECT_EQ(a->items[1].text, "-2.5e3");
  EXPECT_TRUE(a->items[3].boolean);
  EXPECT_EQ(a->items[5].type, JsonValue::Type::kNull);
  EXPECT_EQ(value->Find("s")->text, "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(value->Find("big")->AsUint64(n));
  EXPECT_EQ(n, ~uint64_t{0});
  EXPECT_EQ(value->Find("missing"), nullptr);
}

TEST(JsonReaderTest, RefusesWhatIsNotJson) {
  for (const char* text :
       {"", " ", "{", "}", "[1,]", "{\"a\":1,}", "{a:1}", "{\"a\" 1}", "01", "1.", "1e", "-",
        "+1", ".5", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\t\"",
        "tru", "nul", "[1] 2", "{\"a\":1}}", "'a'", "[1 2]", "NaN", "Infinity", "/*c*/1"}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(IsError(ParseJson(text, "bad.json"), StatusCode::kInvalidArgument, "bad.json"));
  }
  uint64_t n = 0;
  EXPECT_FALSE(ParseJson("18446744073709551616", "t").value().AsUint64(n));
}

TEST(JsonReaderTest, NestingIsBounded) {
  std::string ok(kMaxJsonDepth, '[');
  ok += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(IsOk(ParseJson(ok, "deep.json")));
  std::string deep(100000, '[');
  EXPECT_TRUE(IsError(ParseJson(deep, "deep.json"), StatusCode::kInvalidArgument, "nested"));
}

}  // namespace
}  // namespace iree_rt::io

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/status.h"

#include <gtest/gtest.h>

namespace iree_rt::base {
namespace {

TEST(StatusTest, OkHasNoMessage) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOk);
  EXPECT_EQ(status.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status status = InvalidArgumentError("bad size ", 42);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "bad size 42");
  EXPECT_EQ(status.ToString(), "INVALID_ARGUMENT: bad size 42");
}

TEST(StatusTest, AnnotateAppendsContextWithoutTouchingCopies) {
  Status original = NotFoundError("no driver 'x'");
  Status copy = original;
  copy.Annotate("creating device");
  EXPECT_EQ(copy.message(), "no driver 'x'; creating device");
  EXPECT_EQ(original.message(), "no driver 'x'");
  Status ok;
  ok.Annotate("ignored");
  EXPECT_TRUE(ok.ok());
}

TEST(StatusTest, OkCodeNeverMakesAnError) {
  Status status(StatusCode::kOk, "message dropped");
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.message(), "");
}

StatusOr<int> Half(int value) {
  if (value % 2) return InvalidArgumentError("odd");
  return value / 2;
}

Status Quarter(int value, int* out) {
  RT_ASSIGN_OR_RETURN(int half, Half(value));
  RT_ASSIGN_OR_RETURN(*out, Half(half));
  return Status::Ok();
}

TEST(StatusTest, MacrosPropagate) {
  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  Status status = Quarter(6, &out);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusCodeName(StatusCode::kIncompatible), std::string("INCOMPATIBLE"));
}

}  // namespace
}  // namespace iree_rt::base

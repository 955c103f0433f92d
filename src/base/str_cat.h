// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StrCat: concatenates streamable values into a std::string (messages only; not hot paths).
#ifndef IREE_RT_BASE_STR_CAT_H_
#define IREE_RT_BASE_STR_CAT_H_

#include <sstream>
#include <string>

namespace iree_rt::base {

template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream stream;
  (stream << ... << args);
  return stream.str();
}

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_STR_CAT_H_

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Glob matching as IREE uses it for device ids and test filters: '*' matches any run of
// characters, '?' exactly one, everything else itself.
#ifndef IREE_RT_BASE_GLOB_H_
#define IREE_RT_BASE_GLOB_H_

#include <string_view>

namespace iree_rt::base {

bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_GLOB_H_

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/glob.h"

namespace iree_rt::base {

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Greedy with one backtrack point: on a mismatch, let the last '*' absorb one more character.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1, t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace iree_rt::base

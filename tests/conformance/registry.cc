#include "registry.h"

#include <cstdlib>

namespace iree_rt::cts {

Registry& Registry::Get() {
  static Registry* registry = [] {
    auto* created = new Registry();
    RegisterBackends(*created);
    return created;
  }();
  return *registry;
}

std::vector<const Backend*> Registry::SelectedBackends() const {
  std::vector<const Backend*> selected;
  for (const Backend& backend : backends_) {
#ifdef RT_CTS_DRIVER
    if (backend.driver != RT_CTS_DRIVER) continue;
#endif
    selected.push_back(&backend);
  }
  return selected;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
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

const Expectation* FindExpectation(const std::vector<Expectation>& list, std::string_view test_name) {
  for (const Expectation& expectation : list) {
    if (GlobMatch(expectation.pattern, test_name)) return &expectation;
  }
  return nullptr;
}

bool VerifyXfails() {
  const char* value = std::getenv("RT_CTS_VERIFY_XFAILS");
  return value && std::string_view(value) == "1";
}

}  // namespace iree_rt::cts

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "registry.h"

#include <cstdlib>

#include "base/glob.h"

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
    if (backend.driver != SelectedDriver()) continue;
    selected.push_back(&backend);
  }
  return selected;
}

const Expectation* FindExpectation(const std::vector<Expectation>& list, std::string_view test_name) {
  for (const Expectation& expectation : list) {
    if (base::GlobMatch(expectation.pattern, test_name)) return &expectation;
  }
  return nullptr;
}

bool VerifyXfails() {
  const char* value = std::getenv("RT_CTS_VERIFY_XFAILS");
  return value && std::string_view(value) == "1";
}

}  // namespace iree_rt::cts

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The HAL conformance suite's backend registry (IREE hal/cts/util/registry.h in spirit).
//
// A backend is one way of creating a hal::Device plus what the suites need to know about it: the
// executable format its test kernels are compiled to and where their bytes come from, and two glob
// lists over "Suite.Case" names:
//   - unsupported: permanent ("this backend has no such feature"), each with a reason. Matching
//     cases are skipped with the reason.
//   - xfail: temporary ("known bug, tracked"), each with a reason. Matching cases run; a failure is
//     reported as a skip carrying the reason, and a pass fails the case as a stale xfail when the
//     environment variable RT_CTS_VERIFY_XFAILS=1 is set.
// A device factory returning UNAVAILABLE skips every case of that backend with the reason.
//
// Backends are registered explicitly by backends/<driver>.cc (RegisterBackends), never by static
// initializers. A test binary serves one driver (CMakeLists.txt builds two per driver, splitting
// the suites): SelectedDriver() names the driver whose backends the suites are instantiated for.
// Only selected_driver.cc is compiled per binary; the suites are compiled once for every driver.
#ifndef IREE_RT_TESTS_CONFORMANCE_REGISTRY_H_
#define IREE_RT_TESTS_CONFORMANCE_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/driver.h"

namespace iree_rt::cts {

// A glob over "Suite.Case" (base::GlobMatch: '*' any run, '?' one character) and why it is listed.
struct Expectation {
  std::string pattern;
  std::string reason;
};

struct Backend {
  // Unique; used in test names ('-' becomes '_').
  std::string name;
  // The driver this backend belongs to (selects the test binary).
  std::string driver;
  // A fresh device per test. UNAVAILABLE means "cannot run here": every case is skipped.
  std::function<base::StatusOr<base::Ref<hal::Device>>()> create_device;
  // Optional: the driver itself, for driver enumeration cases (skipped when empty).
  std::function<base::StatusOr<base::Ref<hal::Driver>>()> create_driver;
  // The format string the test kernels are compiled to, e.g. "embedded-elf-x86_64".
  std::string executable_format;
  // The bytes of test kernel |name| ("abs", "scale_and_offset", ...). UNAVAILABLE when this build
  // has no compiled kernels: dispatch suites then skip.
  std::function<base::StatusOr<std::vector<uint8_t>>(std::string_view name)> executable_data;
  std::vector<Expectation> unsupported;
  std::vector<Expectation> xfail;
};

class Registry {
 public:
  // The process-wide registry, filled on first use by RegisterBackends().
  static Registry& Get();

  void Register(Backend backend) { backends_.push_back(std::move(backend)); }
  const std::vector<Backend>& backends() const { return backends_; }
  // The backends of the driver this binary was built for (SelectedDriver()).
  std::vector<const Backend*> SelectedBackends() const;

 private:
  std::vector<Backend> backends_;
};

// Defined by the backends/<driver>.cc linked into the binary.
void RegisterBackends(Registry& registry);
// The driver this binary tests: selected_driver.cc, compiled with RT_CTS_DRIVER for each binary.
std::string_view SelectedDriver();

// The first expectation whose pattern matches |test_name|, or null.
const Expectation* FindExpectation(const std::vector<Expectation>& list, std::string_view test_name);
// Whether RT_CTS_VERIFY_XFAILS=1 is set.
bool VerifyXfails();

}  // namespace iree_rt::cts

#endif  // IREE_RT_TESTS_CONFORMANCE_REGISTRY_H_

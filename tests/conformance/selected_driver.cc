// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The one source of the conformance suite compiled per test binary: it names the driver whose
// backends the suites, compiled once for all drivers, are instantiated for.
#include "registry.h"

namespace iree_rt::cts {

std::string_view SelectedDriver() { return RT_CTS_DRIVER; }

}  // namespace iree_rt::cts

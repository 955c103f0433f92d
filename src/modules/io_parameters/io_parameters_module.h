// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The native `io_parameters` module (version 0): what a program whose weights live outside the
// .vmfb imports to fetch them (`load`, `gather`, `scatter`; parameters_facts.md §2.1, checked
// against the imports of iree-compile 3.13.0 programs).
//
// Each call names a scope (a null scope is the unscoped one, ""), a table of keys and a list of
// spans {parameter offset, buffer offset, length}. The providers are matched by exact scope.
// Calls are queue-ordered: the work starts after the wait fence and the signal fence is
// signalled when it is done, or failed with the error (a missing key, a span past a parameter's
// end) naming the scope and key. A CPU device imports parameters whose bytes are already in
// host memory (mapped or preloaded archives) instead of copying them. `scatter` writes into
// parameters given as writable (ParameterProvider::Entry::file->writable()); any other refuses.
//
// Thread-safety: the module is immutable and may be shared by many contexts.
#ifndef IREE_RT_MODULES_IO_PARAMETERS_IO_PARAMETERS_MODULE_H_
#define IREE_RT_MODULES_IO_PARAMETERS_IO_PARAMETERS_MODULE_H_

#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "modules/io_parameters/parameter_provider.h"
#include "vm/module.h"

namespace iree_rt::modules::io_parameters {

// Creates the module over |providers| (none null; at most one per scope). Register it after the
// `hal` module and before the programs; the instance must have the hal ref types.
base::StatusOr<base::Ref<vm::Module>> CreateIoParametersModule(
    std::vector<base::Ref<ParameterProvider>> providers);

}  // namespace iree_rt::modules::io_parameters

#endif  // IREE_RT_MODULES_IO_PARAMETERS_IO_PARAMETERS_MODULE_H_

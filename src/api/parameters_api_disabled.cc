// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_parameters_* and iree_rt_module_create_io_parameters in a build without parameter
// archives (IREE_RT_PARAMETERS=OFF, the default of IREE_RT_MINSIZE): the exports stay, so the
// ABI is the same, and each says UNIMPLEMENTED. No parameter set can exist, so retain and
// release have nothing to do.
#include "api/status_bridge.h"
#include "iree_rt.h"

namespace {

iree_rt_status_t Disabled(const char* function) {
  return iree_rt::api::Guard(function, [] {
    return iree_rt::base::UnimplementedError(
        "this libiree_rt was built without parameter archives (IREE_RT_PARAMETERS=OFF); programs "
        "with external parameters need a build with them");
  });
}

}  // namespace

iree_rt_status_t iree_rt_parameters_create(iree_rt_instance_t, const char*, iree_rt_parameters_t*) {
  return Disabled(__func__);
}
void iree_rt_parameters_retain(iree_rt_parameters_t) {}
void iree_rt_parameters_release(iree_rt_parameters_t) {}
iree_rt_status_t iree_rt_parameters_add_file(iree_rt_parameters_t, const char*, iree_rt_parameter_mode_t) {
  return Disabled(__func__);
}
iree_rt_status_t iree_rt_parameters_add_archive_memory(iree_rt_parameters_t, const char*, const void*, size_t,
                                                       iree_rt_parameters_flags_t,
                                                       iree_rt_module_release_callback_t, void*) {
  return Disabled(__func__);
}
iree_rt_status_t iree_rt_parameters_add_memory(iree_rt_parameters_t, const char*, const void*, size_t,
                                               iree_rt_parameters_flags_t, iree_rt_module_release_callback_t,
                                               void*) {
  return Disabled(__func__);
}
iree_rt_status_t iree_rt_parameters_add_splat(iree_rt_parameters_t, const char*, const void*, size_t, uint64_t) {
  return Disabled(__func__);
}
iree_rt_status_t iree_rt_parameters_scope(iree_rt_parameters_t, const char**) { return Disabled(__func__); }
iree_rt_status_t iree_rt_parameters_count(iree_rt_parameters_t, size_t*) { return Disabled(__func__); }
iree_rt_status_t iree_rt_parameters_entry(iree_rt_parameters_t, size_t, const char**, uint64_t*) {
  return Disabled(__func__);
}
iree_rt_status_t iree_rt_module_create_io_parameters(iree_rt_instance_t, const iree_rt_parameters_t*, size_t,
                                                     iree_rt_module_t*) {
  return Disabled(__func__);
}

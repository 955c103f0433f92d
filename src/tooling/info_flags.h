// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// tooling::InfoFlags: the flags every tool takes as IREE's tools do, besides its own:
//   --version                      the tool and runtime version, then exit
//   --list_drivers                 the HAL drivers built in, then exit
//   --list_devices[=DRIVER]        the devices each (or one) driver finds, as URIs, then exit
//   --dump_devices[=DRIVER]        the same with each device's properties, then exit
//   --module_mode=preload|mmap     how --module files are brought into memory (read by default)
//   --parameters=[SCOPE=]FILE      parameter archives for programs with external weights
//   --parameter_mode=mmap|preload|file  how the archives are reached (mapped by default)
#ifndef IREE_RT_TOOLING_INFO_FLAGS_H_
#define IREE_RT_TOOLING_INFO_FLAGS_H_

#include <string>
#include <string_view>

#include "base/status.h"
#include "tooling/run_session.h"

namespace iree_rt::tooling {

// The usage lines for the flags above, for a tool's --help.
extern const char kInfoFlagsUsage[];

// Handles |arg| if it is one of the flags above: informational flags print to stdout and exit
// the process with 0 (or print the error and exit with 1); --module_mode, --parameters and
// --parameter_mode set |options|.
// Returns whether |arg| was one of them; INVALID_ARGUMENT for a bad value.
base::StatusOr<bool> HandleInfoFlag(std::string_view tool, std::string_view arg, SessionOptions* options);

// The text of --list_drivers, and of --list_devices / --dump_devices (|dump|) for |driver| (empty:
// every driver). A driver that cannot run here is listed with its reason, never an error.
std::string ListDrivers();
base::StatusOr<std::string> ListDevices(std::string_view driver, bool dump);

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_INFO_FLAGS_H_

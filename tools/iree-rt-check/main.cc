// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-check: runs a compiled check program's test cases, like IREE's iree-check-module.
//
//   iree-rt-check --module=m.vmfb [--module=...] [--device=local-task ...]
//
// Every public export of the main module (no "__" prefix, no "$" in the name) that takes no
// arguments (besides the async-external fences) is a test case. Each case runs in a fresh
// context, so globals a case changes cannot leak into the next; the devices and loaded modules
// are shared. A case fails when its invocation fails, which includes the check module's recorded
// expectation failures (FAILED_PRECONDITION). Output is gtest-like; the exit code is 0 only when
// at least one case ran and every case passed.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "tooling/info_flags.h"
#include "tooling/run_session.h"
#include "vm/context.h"
#include "vm/module.h"

namespace iree_rt {
namespace {

using base::Status;
using base::StatusOr;

constexpr const char kUsage[] =
    "usage: iree-rt-check --module=FILE.vmfb [--module=...] [--device=URI ...] [--limit=...]\n"
    "Runs every public, argument-less export of the main (last) module as a test case, each in\n"
    "a fresh context, and reports which failed (check.expect_* failures included).\n"
    "  --module   a compiled module; repeat to link several (the last one is the main module)\n"
    "  --device   a HAL device (default local-task); repeat for several\n"
    "  --limit    NAME=VALUE, see iree-rt-run --help\n";

StatusOr<tooling::SessionOptions> ParseFlags(int argc, char** argv, bool* help) {
  tooling::SessionOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      *help = true;
      return options;
    }
    RT_ASSIGN_OR_RETURN(bool handled, tooling::HandleInfoFlag("iree-rt-check", arg, &options));
    if (handled) continue;
    const size_t eq = arg.find('=');
    const std::string_view name = eq == std::string_view::npos ? arg : arg.substr(0, eq);
    if (name == "--module" && eq != std::string_view::npos) {
      options.module_paths.emplace_back(arg.substr(eq + 1));
    } else if (name == "--device" && eq != std::string_view::npos) {
      options.device_uris.emplace_back(arg.substr(eq + 1));
    } else if (name == "--limit" && eq != std::string_view::npos) {
      options.limits.emplace_back(arg.substr(eq + 1));
    } else {
      return base::InvalidArgumentError("unknown argument `", arg, "` (see --help)");
    }
  }
  if (options.module_paths.empty()) {
    return base::InvalidArgumentError("no --module= given (see --help)");
  }
  return options;
}

// The main module's test cases, in export order.
StatusOr<std::vector<std::string>> FindCases(tooling::RunSession& session) {
  std::vector<std::string> cases;
  for (const vm::ExportInfo& info : session.main_module().exports()) {
    if (!tooling::RunSession::IsPublicExport(info.name)) continue;
    RT_ASSIGN_OR_RETURN(std::string cconv, tooling::RunSession::UserCconv(info));
    if (cconv.substr(0, 2) == "0_" || cconv.substr(0, 3) == "0v_") cases.emplace_back(info.name);
  }
  return cases;
}

Status RunCase(tooling::RunSession& session, const std::string& name) {
  RT_RETURN_IF_ERROR(session.ResetContext());
  RT_ASSIGN_OR_RETURN(vm::Context::Function function, session.LookupFunction(name));
  std::vector<vm::Value> results;
  return session.Invoke(function, {}, &results);
}

// Returns the exit code.
StatusOr<int> Run(const tooling::SessionOptions& options) {
  RT_ASSIGN_OR_RETURN(std::unique_ptr<tooling::RunSession> session,
                      tooling::RunSession::Create(options));
  RT_ASSIGN_OR_RETURN(std::vector<std::string> cases, FindCases(*session));
  const std::string module_name(session->main_module().name());
  std::printf("[==========] Running %zu test case%s from module '%s'.\n", cases.size(),
              cases.size() == 1 ? "" : "s", module_name.c_str());
  std::vector<std::string> failed;
  for (const std::string& name : cases) {
    const std::string full_name = module_name + "." + name;
    std::printf("[ RUN      ] %s\n", full_name.c_str());
    std::fflush(stdout);
    Status status = RunCase(*session, name);
    if (status.ok()) {
      std::printf("[       OK ] %s\n", full_name.c_str());
    } else {
      std::printf("%s\n[  FAILED  ] %s\n", status.ToString().c_str(), full_name.c_str());
      failed.push_back(full_name);
    }
    std::fflush(stdout);
  }
  std::printf("[==========] %zu test case%s ran.\n", cases.size(), cases.size() == 1 ? "" : "s");
  std::printf("[  PASSED  ] %zu test case%s.\n", cases.size() - failed.size(),
              cases.size() - failed.size() == 1 ? "" : "s");
  if (!failed.empty()) {
    std::printf("[  FAILED  ] %zu test case%s, listed below:\n", failed.size(),
                failed.size() == 1 ? "" : "s");
    for (const std::string& name : failed) std::printf("[  FAILED  ] %s\n", name.c_str());
  }
  if (cases.empty()) {
    std::fprintf(stderr, "iree-rt-check: module '%s' has no test cases\n", module_name.c_str());
    return 1;
  }
  return failed.empty() ? 0 : 1;
}

}  // namespace
}  // namespace iree_rt

int main(int argc, char** argv) {
  bool help = false;
  auto options = iree_rt::ParseFlags(argc, argv, &help);
  if (help) {
    std::fputs(iree_rt::kUsage, stdout);
    std::fputs(iree_rt::tooling::kInfoFlagsUsage, stdout);
    return 0;
  }
  if (!options.ok()) {
    std::fprintf(stderr, "iree-rt-check: %s\n", options.status().ToString().c_str());
    return 1;
  }
  auto exit_code = iree_rt::Run(*options);
  std::fflush(stdout);
  if (!exit_code.ok()) {
    std::fprintf(stderr, "iree-rt-check: %s\n", exit_code.status().ToString().c_str());
    return 1;
  }
  return *exit_code;
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-benchmark: times exported functions of a compiled module, with iree-benchmark-module's
// flags and Google Benchmark output.
//
//   iree-rt-benchmark --module=m.vmfb [--module=...] [--function=f] [--input=SPEC ...]
//                     [--device=local-task ...] [--benchmark_* flags]
//
// One benchmark per function, named BM_<function>/process_time/real_time as IREE names them, so
// the two tools' reports (and --benchmark_format=json) can be compared line for line. Time is
// per call, wall clock, in ms. Exit code 0 only if every call succeeded; errors go to stderr.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "tooling/info_flags.h"
#include "tooling/run_session.h"
#include "vm/cconv.h"
#include "vm/context.h"
#include "vm/module.h"
#include "vm/value.h"

namespace iree_rt {
namespace {

using base::Status;
using base::StatusOr;

struct Flags {
  std::vector<std::string> modules;
  std::string function;
  std::vector<std::string> inputs;
  std::vector<std::string> devices;
  std::vector<std::string> limits;
  // What the shared flags set (--module_mode, --parameters, --trace, --print_statistics...).
  tooling::SessionOptions session;
  // --benchmark_min_time=Nx: a fixed iteration count (the library we link, 1.7, has no 'x').
  std::optional<int64_t> iterations;
};

constexpr const char kUsage[] =
    "usage: iree-rt-benchmark --module=FILE.vmfb [--module=...] [--function=NAME]\n"
    "                         [--input=SPEC ...] [--device=URI ...] [--limit=NAME=VALUE ...]\n"
    "                         [--benchmark_FLAG=...]\n"
    "Times exported functions as iree-benchmark-module does (one benchmark per function).\n"
    "  --module   a compiled module; repeat to link several (the last one is the main module)\n"
    "  --function the export to time (default: every public export of the main module that\n"
    "             takes no arguments)\n"
    "  --input    one per argument, as iree-rt-run: 5, -2.5, 4xf32=1 2 3 4, @file.npy, (null);\n"
    "             parsed once and reused by every call\n"
    "  --device   the HAL device (default local-task)\n"
    "  --limit    NAME=VALUE, see iree-rt-run --help\n"
    "Google Benchmark flags pass through, e.g. --benchmark_repetitions=5,\n"
    "--benchmark_min_time=0.5 (or 0.5s, or 100x for a fixed iteration count),\n"
    "--benchmark_format=json, --benchmark_filter=REGEX, --benchmark_out=FILE.\n";

// Rewrites --benchmark_min_time into what libbenchmark 1.7 parses: a bare number of seconds.
// Newer spellings ("0.5s", "100x") are what IREE's scripts pass to its 1.8+ library.
Status NormalizeMinTime(std::string* arg, Flags* flags) {
  constexpr std::string_view kPrefix = "--benchmark_min_time=";
  std::string value = arg->substr(kPrefix.size());
  if (value.empty()) return base::InvalidArgumentError("empty ", kPrefix);
  const char suffix = value.back();
  if (suffix == 'x') {
    char* end = nullptr;
    const long long n = std::strtoll(value.c_str(), &end, 10);
    if (end != value.c_str() + value.size() - 1 || n <= 0) {
      return base::InvalidArgumentError("bad ", *arg, " (want seconds like 0.5s or 100x)");
    }
    flags->iterations = n;
    arg->clear();  // consumed here
    return Status::Ok();
  }
  if (suffix == 's') value.pop_back();
  char* end = nullptr;
  const double seconds = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || !(seconds > 0)) {
    return base::InvalidArgumentError("bad ", *arg, " (want seconds like 0.5s or 100x)");
  }
  *arg = std::string(kPrefix) + value;
  return Status::Ok();
}

// Splits argv: --benchmark_* go to Google Benchmark (which removes those it understands), ours
// are parsed here. Anything left over is an error, so a typo never silently changes a run.
StatusOr<Flags> ParseFlags(int argc, char** argv) {
  Flags flags;
  // Static: the library keeps pointers into its argv (argv[0] is reported as "executable").
  static std::vector<std::string> benchmark_args;
  benchmark_args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::fputs(tooling::kInfoFlagsUsage, stdout);
      std::exit(0);
    }
    if (arg.substr(0, 12) == "--benchmark_") {
      std::string copy(arg);
      if (arg.substr(0, 21) == "--benchmark_min_time=") {
        RT_RETURN_IF_ERROR(NormalizeMinTime(&copy, &flags));
      }
      // libbenchmark 1.7 aborts (CHECK) on a non-positive repetition count; refuse it here.
      if (arg.substr(0, 24) == "--benchmark_repetitions=" && std::atoi(copy.c_str() + 24) <= 0) {
        return base::InvalidArgumentError("bad ", arg, " (want a positive count)");
      }
      // libbenchmark 1.7 answers a bad format with its usage and exit code 0; refuse it here.
      for (std::string_view flag : {"--benchmark_format=", "--benchmark_out_format="}) {
        if (arg.substr(0, flag.size()) != flag) continue;
        const std::string_view format = arg.substr(flag.size());
        if (format != "console" && format != "json" && format != "csv") {
          return base::InvalidArgumentError("bad ", arg, " (want console, json or csv)");
        }
      }
      if (!copy.empty()) benchmark_args.push_back(std::move(copy));
      continue;
    }
    RT_ASSIGN_OR_RETURN(bool handled,
                        tooling::HandleInfoFlag("iree-rt-benchmark", arg, &flags.session));
    if (handled) continue;
    const size_t eq = arg.find('=');
    if (arg.substr(0, 2) != "--" || eq == std::string_view::npos) {
      return base::InvalidArgumentError("unrecognized argument `", arg,
                                        "` (flags are --name=value)");
    }
    const std::string_view name = arg.substr(2, eq - 2);
    std::string value(arg.substr(eq + 1));
    if (name == "module") {
      flags.modules.push_back(std::move(value));
    } else if (name == "function") {
      flags.function = std::move(value);
    } else if (name == "input") {
      flags.inputs.push_back(std::move(value));
    } else if (name == "device") {
      flags.devices.push_back(std::move(value));
    } else if (name == "limit") {
      flags.limits.push_back(std::move(value));
    } else {
      return base::InvalidArgumentError("unknown flag --", name, " (see --help)");
    }
  }

  static std::vector<char*> bench_argv;
  for (std::string& a : benchmark_args) bench_argv.push_back(a.data());
  int bench_argc = static_cast<int>(bench_argv.size());
  bench_argv.push_back(nullptr);
  benchmark::Initialize(&bench_argc, bench_argv.data());
  // What Initialize left is a --benchmark_ flag it did not recognize or whose value it rejected.
  if (bench_argc > 1) {
    return base::InvalidArgumentError("bad or unknown flag `", bench_argv[1], "` (see --help)");
  }
  if (flags.modules.empty()) return base::InvalidArgumentError("no --module= given (see --help)");
  return flags;
}

// The functions to time: --function, else (as IREE) every public export taking no arguments.
StatusOr<std::vector<std::string>> SelectFunctions(const Flags& flags, const vm::Module& module) {
  if (!flags.function.empty()) return std::vector<std::string>{flags.function};
  if (!flags.inputs.empty()) {
    return base::InvalidArgumentError("--input= needs --function= (inputs are for one function)");
  }
  std::vector<std::string> names;
  for (const vm::ExportInfo& info : module.exports()) {
    if (!tooling::RunSession::IsPublicExport(info.name)) continue;
    RT_ASSIGN_OR_RETURN(std::string user_cconv, tooling::RunSession::UserCconv(info));
    RT_ASSIGN_OR_RETURN(vm::Cconv cconv, vm::ParseCconv(user_cconv));
    if (cconv.arguments.empty()) names.emplace_back(info.name);
  }
  if (names.empty()) {
    return base::InvalidArgumentError("module '", module.name(),
                                      "' has no public export without arguments; choose one "
                                      "with --function= and give its --input= values");
  }
  return names;
}

// One function to time: its arguments are made once and shared by every call.
struct Target {
  std::string name;
  vm::Context::Function function;
  std::vector<vm::Value> args;
};

Status Run(const Flags& flags) {
  tooling::SessionOptions options = flags.session;
  options.device_uris = flags.devices;
  options.limits = flags.limits;
  options.module_paths = flags.modules;
  RT_ASSIGN_OR_RETURN(std::unique_ptr<tooling::RunSession> session,
                      tooling::RunSession::Create(options));
  RT_ASSIGN_OR_RETURN(std::vector<std::string> names,
                      SelectFunctions(flags, session->main_module()));

  std::vector<Target> targets;
  targets.reserve(names.size());  // benchmarks hold pointers into it
  for (const std::string& name : names) {
    Target target{name, {}, {}};
    RT_ASSIGN_OR_RETURN(target.function, session->LookupFunction(name));
    RT_ASSIGN_OR_RETURN(target.args, session->ParseInputs(target.function, flags.inputs));
    // Warm-up: the first call pays one-time costs (executable loading, pool growth, page
    // faults) that are not per-call latency. It also reports a bad call before any timing.
    std::vector<vm::Value> results;
    Status status = session->Invoke(target.function, target.args, &results);
    if (!status.ok()) return status.Annotate(base::StrCat("calling @", name));
    targets.push_back(std::move(target));
  }

  // A failing call ends its benchmark (SkipWithError) and is reported here after the run: the
  // library cannot propagate errors, and aborting mid-report would leave invalid JSON.
  Status first_error;
  for (Target& target : targets) {
    tooling::RunSession* s = session.get();
    Target* t = &target;
    Status* error = &first_error;
    auto* bm = benchmark::RegisterBenchmark(
        ("BM_" + target.name).c_str(), [s, t, error](benchmark::State& state) {
          std::vector<vm::Value> results;
          for (auto _ : state) {
            Status status = s->Invoke(t->function, t->args, &results);
            // Dropped inside the timed loop: releasing results is part of a call's cost.
            results.clear();
            if (!status.ok()) {
              status.Annotate(base::StrCat("calling @", t->name));
              if (error->ok()) *error = status;
              state.SkipWithError(status.ToString().c_str());
              break;
            }
          }
          state.SetItemsProcessed(state.iterations());
        });
    // process_time + real_time: wall-clock per call with the CPU time of every thread (the
    // local-task workers included) alongside; the naming iree-benchmark-module uses.
    bm->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMillisecond);
    if (flags.iterations) bm->Iterations(*flags.iterations);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return first_error;
}

}  // namespace
}  // namespace iree_rt

int main(int argc, char** argv) {
  auto flags = iree_rt::ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::fprintf(stderr, "iree-rt-benchmark: %s\n", flags.status().ToString().c_str());
    return 1;
  }
  iree_rt::base::Status status = iree_rt::Run(*flags);
  std::fflush(stdout);
  if (!status.ok()) {
    std::fprintf(stderr, "iree-rt-benchmark: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}

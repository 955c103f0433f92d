// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-run: runs one function of a compiled module, with iree-run-module's flags and output.
//
//   iree-rt-run --module=m.vmfb [--module=...] [--function=f] [--input=SPEC ...]
//               [--device=local-task] [--output=SPEC ...] [--output_max_element_count=N]
//               [--expected_output=SPEC ...] [--flagfile=FILE]
//
// Prints "EXEC @f" and then each result as iree-run-module does, or with --expected_output the
// comparison verdict. Exit code 0 only on success (and a match); errors go to stderr and name the
// problem.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "expected_outputs.h"
#include "tooling/function_io.h"
#include "tooling/info_flags.h"
#include "tooling/run_session.h"
#include "vm/context.h"

namespace iree_rt {
namespace {

using base::Status;
using base::StatusOr;

struct Flags {
  tooling::SessionOptions session;
  std::string function;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  bool has_outputs = false;
  std::vector<std::string> expected_outputs;
  size_t output_max_element_count = 1024;
  tools::Tolerances tolerances;
};

constexpr const char kUsage[] =
    "usage: iree-rt-run --module=FILE.vmfb [--module=...] [--function=NAME] [--input=SPEC ...]\n"
    "                   [--device=URI ...] [--output=SPEC ...] [--output_max_element_count=N]\n"
    "                   [--expected_output=SPEC ...] [--flagfile=FILE] [--limit=NAME=VALUE ...]\n"
    "Runs one exported function and prints its results as iree-run-module does.\n"
    "  --module   a compiled module; repeat to link several (the last one is the main module)\n"
    "  --function the export to run (default: the main module's only public export)\n"
    "  --input    one per argument: 5, -2.5, 0x10, 4xf32=1 2 3 4, @file.npy, (null)\n"
    "  --device   a HAL device (default local-task); repeat for several, the first gets inputs\n"
    "  --output   one per result: '' discards, '-' prints, @path / +path write (.npy or raw)\n"
    "  --expected_output  one per result, input syntax, (ignored) skips: compares instead of\n"
    "             printing; exit code 1 on a mismatch\n"
    "  --expected_{f16,bf16,f32,f64}_threshold, --expected_rtol  float tolerances\n"
    "  --flagfile a file with one flag per line ('#' starts a comment line)\n"
    "  --limit    NAME=VALUE caps what programs may use (repeatable): max_call_depth,\n"
    "             max_list_length, max_allocation_size, max_context_memory (bytes),\n"
    "             max_module_size, max_call_steps; VALUE is a number or 'unlimited'\n";

void PrintUsage() {
  std::fputs(kUsage, stdout);
  std::fputs(tooling::kInfoFlagsUsage, stdout);
}

StatusOr<double> ParseNumber(std::string_view name, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || errno) return base::InvalidArgumentError("bad --", name, "=", value);
  return number;
}

Status ParseFlag(std::string_view arg, Flags& flags, int depth);

Status ParseFlagfile(const std::string& path, Flags& flags, int depth) {
  if (depth > 8) return base::InvalidArgumentError("--flagfile nesting too deep at '", path, "'");
  std::ifstream file(path);
  if (!file) return base::NotFoundError("cannot open --flagfile '", path, "'");
  std::string line;
  while (std::getline(file, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    Status status = ParseFlag(std::string_view(line).substr(start), flags, depth + 1);
    if (!status.ok()) return status.Annotate(base::StrCat("in --flagfile '", path, "'"));
  }
  return Status::Ok();
}

Status ParseFlag(std::string_view arg, Flags& flags, int depth) {
  if (arg == "--help" || arg == "-h") {
    PrintUsage();
    std::exit(0);
  }
  RT_ASSIGN_OR_RETURN(bool handled, tooling::HandleInfoFlag("iree-rt-run", arg, &flags.session));
  if (handled) return Status::Ok();
  const size_t eq = arg.find('=');
  if (arg.substr(0, 2) != "--" || eq == std::string_view::npos) {
    return base::InvalidArgumentError("unrecognized argument `", arg, "` (flags are --name=value)");
  }
  const std::string_view name = arg.substr(2, eq - 2);
  const std::string value(arg.substr(eq + 1));
  if (name == "module") {
    flags.session.module_paths.push_back(value);
  } else if (name == "device") {
    flags.session.device_uris.push_back(value);
  } else if (name == "limit") {
    flags.session.limits.push_back(value);
  } else if (name == "function") {
    flags.function = value;
  } else if (name == "input") {
    flags.inputs.push_back(value);
  } else if (name == "output") {
    flags.outputs.push_back(value);
    flags.has_outputs = true;
  } else if (name == "expected_output") {
    flags.expected_outputs.push_back(value);
  } else if (name == "output_max_element_count") {
    char* end = nullptr;
    flags.output_max_element_count = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || *end || value[0] == '-') {
      return base::InvalidArgumentError("bad --", name, "=", value);
    }
  } else if (name == "expected_f16_threshold") {
    RT_ASSIGN_OR_RETURN(double v, ParseNumber(name, value));
    flags.tolerances.f16 = static_cast<float>(v);
  } else if (name == "expected_bf16_threshold") {
    RT_ASSIGN_OR_RETURN(double v, ParseNumber(name, value));
    flags.tolerances.bf16 = static_cast<float>(v);
  } else if (name == "expected_f32_threshold") {
    RT_ASSIGN_OR_RETURN(double v, ParseNumber(name, value));
    flags.tolerances.f32 = static_cast<float>(v);
  } else if (name == "expected_f64_threshold") {
    RT_ASSIGN_OR_RETURN(flags.tolerances.f64, ParseNumber(name, value));
  } else if (name == "expected_rtol") {
    RT_ASSIGN_OR_RETURN(double v, ParseNumber(name, value));
    flags.tolerances.rtol = static_cast<float>(v);
  } else if (name == "flagfile") {
    return ParseFlagfile(value, flags, depth);
  } else {
    return base::InvalidArgumentError("unknown flag --", name, " (see --help)");
  }
  return Status::Ok();
}

StatusOr<Flags> ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) RT_RETURN_IF_ERROR(ParseFlag(argv[i], flags, 0));
  if (flags.session.module_paths.empty()) {
    return base::InvalidArgumentError("no --module= given (see --help)");
  }
  return flags;
}

// The expected values, parsed like inputs against the first |specs.size()| result types; fewer
// specs than results is a reported mismatch, more is an error (as in iree-run-module).
StatusOr<std::vector<vm::Value>> ParseExpected(tooling::RunSession& session,
                                               const vm::Context::Function& function,
                                               std::span<const std::string> specs) {
  const std::string_view cconv = function.info->cconv;
  const size_t separator = cconv.find('_');
  std::string_view results = separator == std::string_view::npos ? "" : cconv.substr(separator + 1);
  if (results == "v") results = "";
  if (specs.size() > results.size()) {
    return base::InvalidArgumentError("@", function.info->name, " has ", results.size(),
                                      " results but ", specs.size(), " --expected_output given");
  }
  const std::string as_arguments = base::StrCat("0", results.substr(0, specs.size()), "_v");
  auto values = tooling::ParseInputs(specs, as_arguments, &session.device().allocator());
  if (!values.ok()) {
    Status status = values.status();
    return status.Annotate("parsing --expected_output");
  }
  // "(ignored)" parses as a zero scalar for scalar results; make it skip the comparison.
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i] == "(ignored)") (*values)[i] = vm::Value();
  }
  return values;
}

// Returns the exit code: 0, or 1 when the results do not match --expected_output.
StatusOr<int> Run(const Flags& flags, std::string* out) {
  RT_ASSIGN_OR_RETURN(std::unique_ptr<tooling::RunSession> session,
                      tooling::RunSession::Create(flags.session));
  RT_ASSIGN_OR_RETURN(vm::Context::Function function, session->LookupFunction(flags.function));
  RT_ASSIGN_OR_RETURN(std::vector<vm::Value> args, session->ParseInputs(function, flags.inputs));

  *out += base::StrCat("EXEC @", function.info->name, "\n");
  std::vector<vm::Value> results;
  RT_RETURN_IF_ERROR(session->Invoke(function, args, &results));
  RT_RETURN_IF_ERROR(session->DownloadResults(&results));
  if (!flags.expected_outputs.empty()) {
    RT_ASSIGN_OR_RETURN(std::vector<vm::Value> expected,
                        ParseExpected(*session, function, flags.expected_outputs));
    RT_ASSIGN_OR_RETURN(bool match,
                        tools::CompareResults(expected, results, flags.tolerances, out));
    if (match) *out += "[SUCCESS] all function outputs matched their expected values.\n";
    return match ? 0 : 1;
  }
  if (flags.has_outputs) {
    RT_RETURN_IF_ERROR(
        tooling::WriteOutputs(results, flags.outputs, flags.output_max_element_count, out));
    return 0;
  }
  RT_ASSIGN_OR_RETURN(std::string text,
                      tooling::FormatResults(results, flags.output_max_element_count));
  *out += text;
  return 0;
}

}  // namespace
}  // namespace iree_rt

int main(int argc, char** argv) {
  auto flags = iree_rt::ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::fprintf(stderr, "iree-rt-run: %s\n", flags.status().ToString().c_str());
    return 1;
  }
  std::string out;
  auto exit_code = iree_rt::Run(*flags, &out);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (!exit_code.ok()) {
    std::fprintf(stderr, "iree-rt-run: %s\n", exit_code.status().ToString().c_str());
    return 1;
  }
  return *exit_code;
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Allocation fault injection over the e2e programs, through the C ABI.
//
// This executable replaces the global operator new (every form) and installs the hook of
// base/fault_hook.h, so the N-th allocation of an armed run fails: std::bad_alloc from the
// throwing forms, nullptr from the nothrow forms and the malloc/aligned_alloc/mmap sites. For
// each e2e module a run is what iree-rt-check does (instance, device, hal + check + program
// modules, then every test case in a fresh context), repeated for N = 1, 2, ... until a run
// makes fewer than N allocations. Every run where the fault fired must return a non-OK status
// with a message, free every operator-new allocation it made (counted here; LeakSanitizer checks
// the rest at exit) and must not crash or hang; the last run, which nothing disturbed, must pass.
//
// IREE_RT_FAULT_E2E_DIR (environment) overrides the directory of the compiled e2e modules.
#include <execinfo.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/fault_hook.h"
#include "iree_rt.h"

// Present in sanitizer builds: symbolized stacks for IREE_RT_FAULT_TRACE.
extern "C" void __sanitizer_print_stack_trace() __attribute__((weak));

namespace {

std::atomic<bool> g_armed{false};
std::atomic<int64_t> g_remaining{0};  // allocations of the armed run until the failing one
std::atomic<int64_t> g_fired{0};
std::atomic<int64_t> g_live{0};  // operator-new blocks not yet deleted

void PrintStack() {
  if (__sanitizer_print_stack_trace) {
    __sanitizer_print_stack_trace();
  } else {
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
  }
}

// Diagnostics. IREE_RT_FAULT_TRACE=N prints where the N-th allocation failed, the run's status
// and the allocation ordinals of the blocks it left; IREE_RT_FAULT_TRACE_ORDINAL=K then prints
// where the K-th allocation of that run was made.
int64_t g_trace_n = 0;
int64_t g_trace_ordinal = 0;
int64_t g_current_n = 0;
bool g_tracking = false;
struct Tracked {
  void* block;
  int64_t ordinal;
};
Tracked g_tracked[1 << 14];
size_t g_tracked_count = 0;

bool InjectFailure() {
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  if (g_remaining.fetch_sub(1, std::memory_order_relaxed) != 1) return false;
  g_fired.fetch_add(1, std::memory_order_relaxed);
  if (g_trace_n != 0 && g_trace_n == g_current_n) PrintStack();
  return true;
}

void* Allocate(std::size_t size, std::size_t alignment) {
  if (InjectFailure()) return nullptr;
  if (size == 0) size = 1;
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                : std::malloc(size);
  if (p) g_live.fetch_add(1, std::memory_order_relaxed);
  if (p && g_tracking && g_armed.load()) {
    const int64_t ordinal = g_current_n - g_remaining.load();
    if (ordinal == g_trace_ordinal) PrintStack();
    if (g_tracked_count < std::size(g_tracked)) g_tracked[g_tracked_count++] = {p, ordinal};
  }
  return p;
}

void Free(void* p) {
  if (!p) return;
  g_live.fetch_sub(1, std::memory_order_relaxed);
  for (size_t i = 0; g_tracking && i < g_tracked_count; ++i) {
    if (g_tracked[i].block == p) g_tracked[i] = g_tracked[--g_tracked_count];
  }
  std::free(p);
}

void* AllocateOrThrow(std::size_t size, std::size_t alignment) {
  void* p = Allocate(size, alignment);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t size) { return AllocateOrThrow(size, 0); }
void* operator new[](std::size_t size) { return AllocateOrThrow(size, 0); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return Allocate(size, 0); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return Allocate(size, 0); }
void* operator new(std::size_t size, std::align_val_t a) {
  return AllocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return AllocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(size, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, std::size_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { Free(p); }

namespace {

struct SweepParam {
  std::string module;
  std::string device;
};
void PrintTo(const SweepParam& param, std::ostream* os) { *os << param.module << "." << param.device; }

std::string ModulePath(const std::string& name) {
  const char* dir = std::getenv("IREE_RT_FAULT_E2E_DIR");
  return std::string(dir ? dir : IREE_RT_FAULT_E2E_DIR) + "/e2e_" + name + ".vmfb";
}

// The loaded program's test cases: public exports taking no arguments, as iree-rt-check finds
// them. Read with nothing armed.
std::vector<std::string> FindCases(iree_rt_instance_t instance, const std::string& path) {
  std::vector<std::string> cases;
  iree_rt_module_t module = nullptr;
  if (iree_rt_status_t s = iree_rt_module_load_file(instance, path.c_str(), &module)) {
    ADD_FAILURE() << path << ": " << iree_rt_status_message(s);
    iree_rt_status_free(s);
    return cases;
  }
  size_t count = 0;
  EXPECT_EQ(iree_rt_module_function_count(module, &count), nullptr);
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    const char* signature = nullptr;
    EXPECT_EQ(iree_rt_module_function_name(module, i, &name), nullptr);
    EXPECT_EQ(iree_rt_module_function_signature(module, i, &signature), nullptr);
    const std::string n = name, sig = signature;
    if (n.rfind("__", 0) == 0 || n.find('$') != std::string::npos) continue;
    if (sig.rfind("0_", 0) == 0 || sig.rfind("0v_", 0) == 0) cases.push_back(n);
  }
  iree_rt_module_release(module);
  return cases;
}

// One run as iree-rt-check makes it; returns the first failure. Allocates nothing itself
// between the C calls, so every allocation counted is the runtime's.
iree_rt_status_t RunModule(const SweepParam& param, const std::string& path,
                           const std::vector<std::string>& cases) {
  iree_rt_instance_t instance = nullptr;
  iree_rt_device_t device = nullptr;
  iree_rt_module_t modules[3] = {nullptr, nullptr, nullptr};
  iree_rt_status_t status = iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance);
  if (!status) status = iree_rt_device_create(instance, param.device.c_str(), nullptr, &device);
  if (!status) status = iree_rt_module_create_hal(instance, &device, 1, &modules[0]);
  if (!status) status = iree_rt_module_create_check(instance, &modules[1]);
  if (!status) status = iree_rt_module_load_file(instance, path.c_str(), &modules[2]);
  for (const std::string& name : cases) {
    if (status) break;
    iree_rt_context_t context = nullptr;
    iree_rt_function_t function = nullptr;
    iree_rt_value_list_t results = nullptr;
    status = iree_rt_context_create(instance, modules, 3, &context);
    if (!status) status = iree_rt_context_lookup_function(context, name.c_str(), &function);
    if (!status) status = iree_rt_value_list_create(4, &results);
    if (!status) status = iree_rt_function_call(function, nullptr, results);
    iree_rt_value_list_release(results);
    iree_rt_function_release(function);
    iree_rt_context_release(context);
  }
  for (iree_rt_module_t module : modules) iree_rt_module_release(module);
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  return status;
}

// The programs swept at every N by default (module.device).
const std::string kFullSweep[] = {"arith_f32.local-sync", "control_flow.local-task"};
constexpr int64_t kSampledRuns = 250;

// How many allocations an undisturbed run makes.
int64_t CountAllocations(const SweepParam& param, const std::string& path,
                         const std::vector<std::string>& cases) {
  constexpr int64_t kMany = int64_t{1} << 60;
  g_remaining.store(kMany);
  iree_rt_status_t status = nullptr;
  std::thread thread([&] {
    g_armed.store(true);
    status = RunModule(param, path, cases);
    g_armed.store(false);
  });
  thread.join();
  EXPECT_EQ(status, nullptr);
  iree_rt_status_free(status);
  return kMany - g_remaining.load();
}

class FaultInjectionTest : public ::testing::TestWithParam<SweepParam> {
 protected:
  void SetUp() override {
    iree_rt::base::SetAllocationFaultHook(&InjectFailure);
    if (const char* trace = std::getenv("IREE_RT_FAULT_TRACE")) g_trace_n = std::atoll(trace);
    if (const char* k = std::getenv("IREE_RT_FAULT_TRACE_ORDINAL")) g_trace_ordinal = std::atoll(k);
  }
  void TearDown() override { iree_rt::base::SetAllocationFaultHook(nullptr); }
};

TEST_P(FaultInjectionTest, EveryAllocationFailureIsACleanStatus) {
  const SweepParam& param = GetParam();
  const std::string path = ModulePath(param.module);
  std::vector<std::string> cases;
  {
    iree_rt_instance_t instance = nullptr;
    ASSERT_EQ(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance), nullptr);
    cases = FindCases(instance, path);
    iree_rt_instance_release(instance);
  }
  ASSERT_FALSE(cases.empty()) << path << " has no test cases";

  // An undisturbed run first: it must pass, and it warms one-time statics so the live count
  // of later runs starts from a steady state.
  if (iree_rt_status_t s = RunModule(param, path, cases)) {
    FAIL() << "unarmed run: " << iree_rt_status_message(s);
  }

  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, int> codes;  // code name -> runs
  int injected = 0, absorbed = 0, failures = 0;
  int64_t absorbed_at[4] = {};
  int64_t n = 1;
  // Runs with the n-th allocation failing. The status is read into fixed storage and freed
  // before counting, so |left| counts only what the runtime kept.
  struct Outcome {
    bool fired;
    iree_rt_status_code_t code;  // IREE_RT_STATUS_OK when the run passed
    char message[512];
    int64_t left;  // operator-new blocks the run left allocated
  };
  auto run_failing = [&](int64_t n) {
    Outcome outcome{};
    const int64_t live_before = g_live.load();
    g_fired.store(0);
    g_current_n = n;
    g_tracking = n == g_trace_n;
    g_tracked_count = 0;
    g_remaining.store(n);
    // On a thread of its own, so per-thread caches (the VM's spare stack, workgroup scratch)
    // are gone when the thread is joined and the count is exact.
    iree_rt_status_t status = nullptr;
    std::thread thread([&] {
      g_armed.store(true);
      status = RunModule(param, path, cases);
      g_armed.store(false);
    });
    thread.join();
    outcome.fired = g_fired.load() != 0;
    if (status) {
      outcome.code = iree_rt_status_code(status);
      const char* message = iree_rt_status_message(status);
      std::snprintf(outcome.message, sizeof(outcome.message), "%s", message ? message : "");
      iree_rt_status_free(status);
    }
    outcome.left = g_live.load() - live_before;
    for (size_t i = 0; g_tracking && i < g_tracked_count; ++i) {
      std::printf("n=%lld left the block of allocation %lld\n", static_cast<long long>(n),
                  static_cast<long long>(g_tracked[i].ordinal));
    }
    g_tracking = false;
    return outcome;
  };
  // Every N for the programs named in kFullSweep (or all with IREE_RT_FAULT_FULL=1); about
  // kSampledRuns evenly spaced N for the others, which keeps the ASan stage to minutes.
  const int64_t allocations = CountAllocations(param, path, cases);
  const bool full = std::getenv("IREE_RT_FAULT_FULL") != nullptr ||
                    std::find(std::begin(kFullSweep), std::end(kFullSweep), param.module + "." +
                              param.device) != std::end(kFullSweep);
  const int64_t step = full ? 1 : std::max<int64_t>(1, allocations / kSampledRuns);
  for (;; n += step) {
    Outcome outcome = run_failing(n);
    if (outcome.fired && outcome.left != 0) {
      // The first failure of a kind may build a one-time static (locale data for a message);
      // the same failure again must leave nothing.
      outcome = run_failing(n);
    }
    if (!outcome.fired) {
      // Fewer than n allocations: nothing was disturbed, so the run must pass.
      EXPECT_EQ(outcome.code, IREE_RT_STATUS_OK) << "undisturbed run (n=" << n
                                                 << "): " << outcome.message;
      break;
    }
    ++injected;
    if (n == g_trace_n) {
      std::printf("n=%lld: %s, %lld blocks left\n", static_cast<long long>(n),
                  outcome.code ? outcome.message : "OK", static_cast<long long>(outcome.left));
    }
    if (outcome.code != IREE_RT_STATUS_OK) {
      ++codes[iree_rt_status_code_name(outcome.code)];
      if (outcome.message[0] == '\0') {
        ADD_FAILURE() << "n=" << n << ": a failed run with an empty message";
        ++failures;
      }
    } else {
      // The runtime recovered: the failure hit teardown that cannot report (a module's
      // __deinit is skipped) or work with a fallback.
      if (absorbed < static_cast<int>(std::size(absorbed_at))) absorbed_at[absorbed] = n;
      ++absorbed;
    }
    if (outcome.left != 0) {
      ADD_FAILURE() << "n=" << n << ": " << outcome.left
                    << " operator-new blocks leaked by a failed run (" << outcome.message
                    << "); IREE_RT_FAULT_TRACE=" << n << " shows where";
      ++failures;
    }
    if (failures >= 10) break;  // enough to diagnose; keep the log short
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream summary;
  summary << param.module << " on " << param.device << ": " << cases.size() << " cases, "
          << allocations << " allocations, " << injected << " failures injected (every "
          << (step == 1 ? std::string("N") : std::to_string(step) + "th N") << ", " << absorbed
          << " absorbed), " << seconds << " s; codes:";
  for (const auto& [code, count] : codes) summary << " " << code << "=" << count;
  summary << "; first absorbed at n =";
  for (int i = 0; i < absorbed && i < static_cast<int>(std::size(absorbed_at)); ++i) {
    summary << " " << absorbed_at[i];
  }
  std::printf("%s\n", summary.str().c_str());
  RecordProperty("allocations", static_cast<int>(allocations));
  RecordProperty("injected", injected);
  // Anything but RESOURCE_EXHAUSTED means an allocation failure was reported as something else.
  for (const auto& [code, count] : codes) {
    EXPECT_EQ(code, "RESOURCE_EXHAUSTED") << count << " runs failed with " << code;
  }
}

std::vector<SweepParam> Params() {
  std::vector<SweepParam> params;
  std::stringstream modules(IREE_RT_FAULT_E2E_MODULES);
  for (std::string name; std::getline(modules, name, ',');) params.push_back({name, "local-sync"});
  // local-task runs the same code plus the worker pool; a few programs cover it.
  for (const char* name : {"arith_f32", "control_flow", "globals", "linalg_reduce_broadcast"}) {
    params.push_back({name, "local-task"});
  }
  return params;
}

std::string ParamName(const ::testing::TestParamInfo<SweepParam>& info) {
  std::string name = info.param.module + "_" + info.param.device;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(E2e, FaultInjectionTest, ::testing::ValuesIn(Params()), ParamName);

}  // namespace

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt.h: the C ABI of iree_rt, a runtime for modules made by IREE's compiler.
//
// This is the only public header. It is C99 (and valid C++17), includes only <stdint.h> and
// <stddef.h>, and is written to be parsed by SWIG: opaque handles, fixed-width scalars, UTF-8
// `const char*` strings, arrays passed as (pointer, count), `out_` pointers last, no unions,
// varargs or function-like macros, and no by-value structs that could grow.
//
// ===========================================================================================
// Rules that hold for every function (stated once here, not repeated per function)
// ===========================================================================================
//
// Ownership (the CoreFoundation rules):
// - A function named `_create`, `_import`, `_load*`, `_subspan`, `_join`, `_enumerate_*`,
//   `_alloca`, `_lookup_function` or `iree_rt_value_list_get_<object>` returns its object
//   through an `out_` pointer with one reference that the caller owns and must drop with the
//   object's `_release`.
// - Accessors return *borrowed* handles and strings: they stay valid while the object they
//   came from lives, and the caller must not release them (call `_retain` to keep one longer).
// - Every object type has `_retain` (adds a reference) and `_release` (drops one; the object is
//   destroyed with its last reference). Both accept NULL and do nothing for it.
// - Objects keep alive what they need: a buffer view retains its buffer, a queue submission
//   retains its buffers, command buffer and semaphores until it completes, a mapping retains its
//   buffer until unmapped. Releasing a handle early is always safe.
//
// Status (`iree_rt_status_t`):
// - Fallible functions return NULL for success. A non-NULL status carries a code
//   (`iree_rt_status_code_t`, IREE's canonical codes 0..18) and a UTF-8 message; the caller owns
//   it and must free it with `iree_rt_status_free` (it is not reference counted).
// - On error, `out_` parameters are left untouched and nothing is leaked or half-created.
// - INVALID_ARGUMENT, with a message naming the parameter, is returned when a required handle,
//   pointer or string is NULL, when an array pointer is NULL with a non-zero count, or when a
//   handle is not a live object of the expected type (a buffer passed where a device is
//   expected, or, in most cases, a handle used after its last release). These errors are not
//   repeated in the per-function comments below. Parameters marked "nullable" accept NULL.
// - No function aborts or throws because of its arguments: running out of host memory gives
//   RESOURCE_EXHAUSTED, an unexpected internal failure gives INTERNAL.
//
// Thread-safety:
// - `_retain`/`_release` may be called from any thread on any handle.
// - Instances, devices (including their queues), buffers, buffer views, semaphores, fences and
//   executables may be used from several threads at once (host reads and writes of overlapping
//   buffer ranges must still be ordered by the caller).
// - Modules, contexts and functions may be used from several threads at once. Calls into one
//   context are serialized (they share its globals); use a context per thread to call in parallel.
// - Command buffer recording and options objects are externally synchronized: do not call two
//   functions on the same command buffer or options object at the same time.
//
// Timeouts: `int64_t timeout_ns` is relative, in nanoseconds. 0 polls once; negative values act as
// 0; IREE_RT_INFINITE_TIMEOUT waits forever. A wait that times out returns DEADLINE_EXCEEDED.
//
// Sizes and offsets of device memory are `uint64_t`; counts of host arrays are `size_t`.
// IREE_RT_WHOLE_BUFFER as a length means "from the offset to the end of the buffer" where a
// function says so.
#ifndef IREE_RT_H_
#define IREE_RT_H_

#include <stddef.h>
#include <stdint.h>

// IREE_RT_EXPORT marks the functions exported by libiree_rt. On GCC and Clang it also declares
// them `nothrow`: no C++ exception ever leaves the library.
#if defined(_WIN32)
#if defined(IREE_RT_BUILDING_LIBRARY)
#define IREE_RT_EXPORT __declspec(dllexport)
#else
#define IREE_RT_EXPORT __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define IREE_RT_EXPORT __attribute__((visibility("default"), nothrow))
#else
#define IREE_RT_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

// ===========================================================================================
// Version
// ===========================================================================================

// The ABI version this header describes: (major << 16) | minor. A new minor version only adds
// functions and constants; a new major version may change or remove them. Pass
// IREE_RT_ABI_VERSION to iree_rt_instance_create.
#define IREE_RT_ABI_VERSION_MAJOR 1
#define IREE_RT_ABI_VERSION_MINOR 0
#define IREE_RT_ABI_VERSION 0x00010000u

// A pointer to any exported function, as returned by iree_rt_get_proc. Cast it to the function's
// real type before calling it.
typedef void (*iree_rt_proc_t)(void);

// Returns the ABI version the loaded library implements ((major << 16) | minor). Lets a client
// detect a library older than its header before creating anything.
IREE_RT_EXPORT uint32_t iree_rt_get_abi_version(void);

// Returns the library's version as a static, NUL-terminated string: the package version, whose
// major.minor is the ABI version, then the ABI ("1.0.0 (ABI 1.0)"). Never NULL; never freed.
IREE_RT_EXPORT const char* iree_rt_get_version_string(void);

// Returns the exported function called |name| ("iree_rt_buffer_read"), or NULL if this library
// does not export it (or |name| is NULL). Lets a client built against a newer header use newer
// functions only when the loaded library has them.
IREE_RT_EXPORT iree_rt_proc_t iree_rt_get_proc(const char* name);

// ===========================================================================================
// Status
// ===========================================================================================

// The result of a fallible call: NULL on success, otherwise an error the caller must free.
typedef struct iree_rt_status_s* iree_rt_status_t;

// IREE's canonical status codes. The values are fixed and shared with IREE.
typedef enum iree_rt_status_code_e {
  IREE_RT_STATUS_OK = 0,
  // The operation was cancelled, typically by the caller or by destroying what it waited on.
  IREE_RT_STATUS_CANCELLED = 1,
  // An error with no better code.
  IREE_RT_STATUS_UNKNOWN = 2,
  // An argument is bad regardless of the system's state (NULL handle, malformed URI, ...).
  IREE_RT_STATUS_INVALID_ARGUMENT = 3,
  // A timeout expired before the operation finished.
  IREE_RT_STATUS_DEADLINE_EXCEEDED = 4,
  // A named entity (driver, device, export) does not exist.
  IREE_RT_STATUS_NOT_FOUND = 5,
  // The entity to create exists already.
  IREE_RT_STATUS_ALREADY_EXISTS = 6,
  // The caller may not do this (e.g. write through a read-only mapping).
  IREE_RT_STATUS_PERMISSION_DENIED = 7,
  // Out of memory or over a configured limit.
  IREE_RT_STATUS_RESOURCE_EXHAUSTED = 8,
  // The system is not in the state the call needs (e.g. mapping non-host-visible memory).
  IREE_RT_STATUS_FAILED_PRECONDITION = 9,
  // Aborted by a concurrency conflict.
  IREE_RT_STATUS_ABORTED = 10,
  // An offset, length or index is past the valid range.
  IREE_RT_STATUS_OUT_OF_RANGE = 11,
  // Not implemented or not supported by this driver.
  IREE_RT_STATUS_UNIMPLEMENTED = 12,
  // An invariant of the runtime broke: a bug, please report it.
  IREE_RT_STATUS_INTERNAL = 13,
  // The device or service is unavailable (possibly transiently).
  IREE_RT_STATUS_UNAVAILABLE = 14,
  // Unrecoverable data loss or corruption.
  IREE_RT_STATUS_DATA_LOSS = 15,
  // Missing or bad credentials.
  IREE_RT_STATUS_UNAUTHENTICATED = 16,
  // The operation has not completed yet (iree_rt_fence_query).
  IREE_RT_STATUS_DEFERRED = 17,
  // A version or format this runtime does not support.
  IREE_RT_STATUS_INCOMPATIBLE = 18,
  IREE_RT_STATUS_CODE_FORCE32 = 0x7FFFFFFF
} iree_rt_status_code_t;

// Returns the code of |status|; IREE_RT_STATUS_OK for NULL.
IREE_RT_EXPORT iree_rt_status_code_t iree_rt_status_code(iree_rt_status_t status);

// Returns the UTF-8 message of |status| ("" for NULL). The string is borrowed: it lives until
// the status is freed.
IREE_RT_EXPORT const char* iree_rt_status_message(iree_rt_status_t status);

// Frees |status|. Accepts NULL. Each status must be freed exactly once.
IREE_RT_EXPORT void iree_rt_status_free(iree_rt_status_t status);

// Returns the upper-case name of |code| ("INVALID_ARGUMENT"), or "UNKNOWN_CODE" for a value
// outside 0..18. The string is static.
IREE_RT_EXPORT const char* iree_rt_status_code_name(iree_rt_status_code_t code);

// ===========================================================================================
// Instance
// ===========================================================================================
//
// An instance owns the drivers built into the library (local-sync and local-task in the CPU
// build) and creates devices. Most programs make one instance at start-up.

// Options for iree_rt_instance_create. Externally synchronized; may be released right after
// the instance is created.
typedef struct iree_rt_instance_options_s* iree_rt_instance_options_t;
typedef struct iree_rt_instance_s* iree_rt_instance_t;
// A snapshot of the devices drivers report (iree_rt_instance_enumerate_devices).
typedef struct iree_rt_device_info_list_s* iree_rt_device_info_list_t;

// Creates empty instance options: every built-in driver, no default device parameters.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_instance_options_create(iree_rt_instance_options_t* out_options);

IREE_RT_EXPORT void iree_rt_instance_options_retain(iree_rt_instance_options_t options);
IREE_RT_EXPORT void iree_rt_instance_options_release(iree_rt_instance_options_t options);

// Adds |driver_name| to the instance's allow-list. With a non-empty allow-list the instance
// offers only the listed drivers; iree_rt_instance_create then fails with NOT_FOUND if a listed
// driver is not built into the library. Listing a driver twice is harmless.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_instance_options_allow_driver(iree_rt_instance_options_t options, const char* driver_name);

// Sets a default device parameter: every device the instance creates with |driver_name| gets
// `key=value` unless its URI or device options set |key| themselves. For example
// ("local-task", "workers", "4") sizes every local-task worker pool that the caller does not
// size explicitly. Unknown keys are reported when such a device is created (INVALID_ARGUMENT).
// Setting a key again replaces its value.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_options_set_device_param(
    iree_rt_instance_options_t options, const char* driver_name, const char* key,
    const char* value);

// Limits: caps on what programs may use, so a runaway or hostile module fails its call with a
// status instead of exhausting the process. Each context starts with its instance's limits
// (iree_rt_instance_options_set_limit) and may change them (iree_rt_context_set_limit). Passing
// one fails the operation (the call, the context creation or the module load) with
// RESOURCE_EXHAUSTED and a message naming the limit (e.g. "IREE_RT_LIMIT_MAX_CALL_DEPTH"), the
// amount asked for and the cap; the context stays usable and what the failed call allocated is
// released. Limits are checked on hot data only: no call pays more than a compare per check.
typedef enum iree_rt_limit_e {
  // Not a limit (INVALID_ARGUMENT).
  IREE_RT_LIMIT_UNSPECIFIED = 0,
  // Nested calls (bytecode frames and native calls) of one call into a context. Default 1024.
  IREE_RT_LIMIT_MAX_CALL_DEPTH = 1,
  // Elements of one list a program grows (vm.list). Default 16777216 (2^24). A larger
  // capacity hint (list.reserve) is clamped to it; a longer list fails.
  IREE_RT_LIMIT_MAX_LIST_LENGTH = 2,
  // Bytes of one buffer a program allocates: VM buffers and, through the hal module, HAL
  // buffers (hal.allocator.allocate, hal.device.queue.alloca). Default 17179869184 (16 GiB);
  // VM buffers are also capped at 4 GiB by their format.
  IREE_RT_LIMIT_MAX_ALLOCATION_SIZE = 3,
  // Bytes a context's programs hold at once: VM buffers, list storage, module globals and HAL
  // buffers the hal module allocates for it. Memory is returned to the context when the objects
  // die (results the caller keeps count until released). Default unlimited.
  IREE_RT_LIMIT_MAX_CONTEXT_MEMORY = 4,
  // Bytes of a module file or image at load (instance-wide only). Default 17179869184 (16 GiB).
  IREE_RT_LIMIT_MAX_MODULE_SIZE = 5,
  // Backward branches plus calls one call into a context may execute: a budget against runaway
  // loops, counted only at loop back-edges and calls. Exhausting it gives RESOURCE_EXHAUSTED
  // (not DEADLINE_EXCEEDED: it counts steps, not time). Default unlimited.
  IREE_RT_LIMIT_MAX_CALL_STEPS = 6,
  IREE_RT_LIMIT_FORCE32 = 0x7FFFFFFF
} iree_rt_limit_t;

// A limit value that lifts the cap.
#define IREE_RT_LIMIT_UNLIMITED 0xFFFFFFFFFFFFFFFFull

// Sets |limit| to |value| for the instance: every context it creates starts with it, and
// MAX_MODULE_SIZE applies to modules it loads. Setting a limit again replaces the value.
// Errors: INVALID_ARGUMENT for an unknown |limit| or a |value| of 0.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_options_set_limit(
    iree_rt_instance_options_t options, iree_rt_limit_t limit, uint64_t value);

// Records a trace of everything the process's instances do from iree_rt_instance_create on:
// VM calls, hal queue operations and fence waits on host tracks; command buffers, dispatches
// (executable, export, workgroup count) and transfers on one track per device queue (CPU
// drivers, and CUDA's stream-mode dispatches); live device memory as a counter. The file, Chrome
// Trace Event Format JSON that Perfetto and chrome://tracing open, is written when the instance
// is destroyed (which stops this trace) and by iree_rt_instance_trace_flush. Tracing is
// process-wide and off unless this option or the environment variable IREE_RT_TRACE=path turns
// it on; the variable is read at the first instance creation, and its trace lasts for the
// process, rewritten as each instance ends. Off, it costs one atomic load per instrumented point.
// Errors: INVALID_ARGUMENT for an empty |path|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_options_set_trace_path(
    iree_rt_instance_options_t options, const char* path);

// Creates an instance. |abi_version| must be IREE_RT_ABI_VERSION of the header the caller was
// compiled with: INCOMPATIBLE if its major version differs from the library's or its minor
// version is newer. |options| is nullable (defaults); it is copied, not retained.
// Errors: INCOMPATIBLE as above; NOT_FOUND for an allow-listed driver that is not built in.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_create(uint32_t abi_version,
                                                        iree_rt_instance_options_t options,
                                                        iree_rt_instance_t* out_instance);

IREE_RT_EXPORT void iree_rt_instance_retain(iree_rt_instance_t instance);
IREE_RT_EXPORT void iree_rt_instance_release(iree_rt_instance_t instance);

// Writes the trace file now, with every event recorded so far (the process's trace: see
// iree_rt_instance_options_set_trace_path). Does nothing when tracing is off.
// Errors: UNAVAILABLE when the file cannot be written.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_trace_flush(iree_rt_instance_t instance);

// Returns the number of drivers |instance| offers.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_driver_count(iree_rt_instance_t instance,
                                                              size_t* out_count);

// Returns the name of driver |index| ("local-task"): a string borrowed from |instance|.
// Errors: OUT_OF_RANGE if |index| >= the driver count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_driver_name(iree_rt_instance_t instance,
                                                             size_t index, const char** out_name);

// Asks the driver called |driver_name| (nullable: every driver) which devices it can create and
// returns them as a new list (+1). With |driver_name| NULL, drivers that cannot run on this
// machine (UNAVAILABLE) are skipped.
// Errors: NOT_FOUND for an unknown |driver_name|; the driver's error if enumeration fails.
IREE_RT_EXPORT iree_rt_status_t iree_rt_instance_enumerate_devices(
    iree_rt_instance_t instance, const char* driver_name, iree_rt_device_info_list_t* out_list);

IREE_RT_EXPORT void iree_rt_device_info_list_retain(iree_rt_device_info_list_t list);
IREE_RT_EXPORT void iree_rt_device_info_list_release(iree_rt_device_info_list_t list);

// Returns the number of devices in |list|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_count(iree_rt_device_info_list_t list,
                                                               size_t* out_count);

// Returns the human-readable name of device |index|, borrowed from |list|.
// Errors: OUT_OF_RANGE if |index| >= the count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_name(iree_rt_device_info_list_t list,
                                                              size_t index, const char** out_name);

// Returns a URI that creates device |index| with iree_rt_device_create, borrowed from |list|.
// Errors: OUT_OF_RANGE if |index| >= the count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_uri(iree_rt_device_info_list_t list,
                                                             size_t index, const char** out_uri);

// Returns how many key/value properties device |index| has (e.g. "workers" for local-task).
// Errors: OUT_OF_RANGE if |index| >= the count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_property_count(
    iree_rt_device_info_list_t list, size_t index, size_t* out_count);

// Returns the key of property |property| of device |index|, borrowed from |list|.
// Errors: OUT_OF_RANGE if either index is past its count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_property_key(
    iree_rt_device_info_list_t list, size_t index, size_t property, const char** out_key);

// Returns the value of property |property| of device |index|, borrowed from |list|.
// Errors: OUT_OF_RANGE if either index is past its count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_info_list_property_value(
    iree_rt_device_info_list_t list, size_t index, size_t property, const char** out_value);

// ===========================================================================================
// Driver and device
// ===========================================================================================
//
// A device is created from a URI: "driver", "driver://path" or "driver://path?key=value&...".
// Built-in CPU devices:
//   "local-sync"                 runs each queue operation on the thread that makes it ready
//   "local-task"                 runs queue work on a worker pool (one worker per core)
//   "local-task://?workers=N"    the same with N workers (1..1024)
// A device owns one queue (the `iree_rt_device_queue_*` functions below).

typedef struct iree_rt_device_options_s* iree_rt_device_options_t;
typedef struct iree_rt_device_s* iree_rt_device_t;

// Creates empty device options.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_device_options_create(iree_rt_device_options_t* out_options);

IREE_RT_EXPORT void iree_rt_device_options_retain(iree_rt_device_options_t options);
IREE_RT_EXPORT void iree_rt_device_options_release(iree_rt_device_options_t options);

// Sets device parameter |key| to |value| (both copied). Device parameters are merged into the
// URI's parameters by iree_rt_device_create; an option overrides the same key in the URI.
// Errors: INVALID_ARGUMENT for an empty |key| or one containing '=', '&' or '?'.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_options_set_string(iree_rt_device_options_t options,
                                                                  const char* key,
                                                                  const char* value);

// Creates the device named by |uri| with |options| (nullable; copied, not retained). Parameter
// precedence: device options, then the URI, then the instance's defaults for the driver. The
// device keeps its driver alive; |instance| may be released afterwards.
// Errors: INVALID_ARGUMENT for a malformed URI or a parameter the driver does not accept or
// cannot parse; NOT_FOUND for an unknown driver or device path; UNAVAILABLE if the driver cannot
// run on this machine.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_create(iree_rt_instance_t instance, const char* uri,
                                                      iree_rt_device_options_t options,
                                                      iree_rt_device_t* out_device);

IREE_RT_EXPORT void iree_rt_device_retain(iree_rt_device_t device);
IREE_RT_EXPORT void iree_rt_device_release(iree_rt_device_t device);

// Returns the device identifier that compiled programs match ("local-task"), borrowed from
// |device|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_id(iree_rt_device_t device, const char** out_id);

// Answers a device query as IREE programs ask them: |category| "hal.device.id" with a glob |key|
// (1 if the id matches), "hal.executable.format" with a format name (1 if loadable),
// "hal.device"/"hal.dispatch" with "concurrency", ...
// Errors: NOT_FOUND if the device has no answer for (category, key).
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_query_i64(iree_rt_device_t device,
                                                         const char* category, const char* key,
                                                         int64_t* out_value);

// Statistics of a device's allocator (iree_rt_device_memory_statistic).
typedef enum iree_rt_memory_statistic_e {
  // Bytes of live allocations made by the device's allocator (imported host memory excluded).
  IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED = 1,
  // The largest value BYTES_ALLOCATED has had.
  IREE_RT_MEMORY_STATISTIC_PEAK_BYTES_ALLOCATED = 2,
  // Allocations made since the device was created.
  IREE_RT_MEMORY_STATISTIC_ALLOCATION_COUNT = 3,
  IREE_RT_MEMORY_STATISTIC_FORCE32 = 0x7FFFFFFF
} iree_rt_memory_statistic_t;

// Returns one allocator statistic of |device|.
// Errors: INVALID_ARGUMENT for an unknown |statistic|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_memory_statistic(
    iree_rt_device_t device, iree_rt_memory_statistic_t statistic, uint64_t* out_value);

// ===========================================================================================
// Allocator and buffer
// ===========================================================================================
//
// A buffer is a range of device-usable memory, possibly a subspan of a larger allocation. The
// bit values below are IREE's and match its compiler's HAL dialect.

typedef struct iree_rt_buffer_s* iree_rt_buffer_t;

// Memory type bits: where memory lives and who may see it.
typedef uint32_t iree_rt_memory_type_t;
#define IREE_RT_MEMORY_TYPE_NONE 0x0000u
// Let the allocator choose the best placement (a hint, dropped by CPU devices).
#define IREE_RT_MEMORY_TYPE_OPTIMAL 0x0001u
// The host can map the memory.
#define IREE_RT_MEMORY_TYPE_HOST_VISIBLE 0x0002u
// Host and device see each other's writes without explicit flushes.
#define IREE_RT_MEMORY_TYPE_HOST_COHERENT 0x0004u
// Host reads are cached.
#define IREE_RT_MEMORY_TYPE_HOST_CACHED 0x0008u
// Host-local memory (host visible + coherent, device visible).
#define IREE_RT_MEMORY_TYPE_HOST_LOCAL 0x0046u
// The device can access the memory.
#define IREE_RT_MEMORY_TYPE_DEVICE_VISIBLE 0x0010u
// Device-local memory (fastest for the device; host visible on CPU devices).
#define IREE_RT_MEMORY_TYPE_DEVICE_LOCAL 0x0030u

// Buffer usage bits: what a buffer may be used for.
typedef uint32_t iree_rt_buffer_usage_t;
#define IREE_RT_BUFFER_USAGE_NONE 0x0u
#define IREE_RT_BUFFER_USAGE_TRANSFER_SOURCE 0x1u
#define IREE_RT_BUFFER_USAGE_TRANSFER_TARGET 0x2u
#define IREE_RT_BUFFER_USAGE_TRANSFER 0x3u
#define IREE_RT_BUFFER_USAGE_DISPATCH_INDIRECT_PARAMETERS 0x100u
#define IREE_RT_BUFFER_USAGE_DISPATCH_UNIFORM_READ 0x200u
#define IREE_RT_BUFFER_USAGE_DISPATCH_STORAGE_READ 0x400u
#define IREE_RT_BUFFER_USAGE_DISPATCH_STORAGE_WRITE 0x800u
#define IREE_RT_BUFFER_USAGE_DISPATCH_STORAGE 0xC00u
#define IREE_RT_BUFFER_USAGE_DISPATCH_IMAGE 0x3000u
#define IREE_RT_BUFFER_USAGE_DISPATCH 0x3F00u
#define IREE_RT_BUFFER_USAGE_SHARING_EXPORT 0x10000u
#define IREE_RT_BUFFER_USAGE_SHARING_REPLICATE 0x20000u
#define IREE_RT_BUFFER_USAGE_SHARING_CONCURRENT 0x40000u
#define IREE_RT_BUFFER_USAGE_SHARING_IMMUTABLE 0x80000u
#define IREE_RT_BUFFER_USAGE_MAPPING_SCOPED 0x1000000u
#define IREE_RT_BUFFER_USAGE_MAPPING_PERSISTENT 0x2000000u
#define IREE_RT_BUFFER_USAGE_MAPPING_OPTIONAL 0x4000000u
#define IREE_RT_BUFFER_USAGE_MAPPING_ACCESS_RANDOM 0x8000000u
#define IREE_RT_BUFFER_USAGE_MAPPING_ACCESS_SEQUENTIAL_WRITE 0x10000000u
#define IREE_RT_BUFFER_USAGE_MAPPING 0x9000000u
// TRANSFER | DISPATCH_STORAGE: what most tensors need.
#define IREE_RT_BUFFER_USAGE_DEFAULT 0xC03u

// Memory access bits: how memory may be accessed (allowed access of a buffer, mapping mode).
typedef uint32_t iree_rt_memory_access_t;
#define IREE_RT_MEMORY_ACCESS_NONE 0x0u
#define IREE_RT_MEMORY_ACCESS_READ 0x1u
#define IREE_RT_MEMORY_ACCESS_WRITE 0x2u
// The previous contents may be discarded.
#define IREE_RT_MEMORY_ACCESS_DISCARD 0x4u
#define IREE_RT_MEMORY_ACCESS_DISCARD_WRITE 0x6u
#define IREE_RT_MEMORY_ACCESS_ALL 0x7u

// A length meaning "from the offset to the end of the buffer".
#define IREE_RT_WHOLE_BUFFER 0xFFFFFFFFFFFFFFFFull

// Called once when the last buffer referencing imported host memory is destroyed, with the
// |user_data| and |ptr| given to iree_rt_buffer_import_host. It may run on any thread (for
// example a worker that finished the last queue operation using the buffer) and must not call
// back into the runtime with the buffer.
typedef void (*iree_rt_host_release_fn_t)(void* user_data, void* ptr);

// Allocates |size| bytes (0 allowed) of |memory_type| memory usable for |usage|, with every
// access allowed. The device may grant more type and usage bits than asked for (CPU buffers are
// always host visible and mappable). New memory is zero-filled on CPU devices.
// Errors: RESOURCE_EXHAUSTED when memory runs out or |size| is over the device's limit;
// INVALID_ARGUMENT for a type or usage the device cannot provide.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_allocate(iree_rt_device_t device,
                                                        iree_rt_memory_type_t memory_type,
                                                        iree_rt_buffer_usage_t usage, uint64_t size,
                                                        iree_rt_buffer_t* out_buffer);

// Wraps |size| bytes of caller memory at |ptr| as a buffer without copying. |access| limits how
// the device and the host may use it (READ for constant data). |release_fn| (nullable) is called
// exactly once with (|user_data|, |ptr|) after the last reference to the memory is dropped:
// buffer handles, subspans, views, mappings and pending queue operations all count. Until then
// the caller must keep the memory valid. On error |release_fn| is not called and the caller
// still owns the memory.
// Errors: INVALID_ARGUMENT for a NULL |ptr| with a non-zero |size| or unknown |access| bits;
// UNIMPLEMENTED if the device cannot use host memory directly.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_import_host(
    iree_rt_device_t device, iree_rt_memory_type_t memory_type, iree_rt_buffer_usage_t usage,
    iree_rt_memory_access_t access, void* ptr, uint64_t size, iree_rt_host_release_fn_t release_fn,
    void* user_data, iree_rt_buffer_t* out_buffer);

IREE_RT_EXPORT void iree_rt_buffer_retain(iree_rt_buffer_t buffer);
IREE_RT_EXPORT void iree_rt_buffer_release(iree_rt_buffer_t buffer);

// Creates a buffer viewing [offset, offset + length) of |buffer| (|length| may be
// IREE_RT_WHOLE_BUFFER). The subspan keeps the underlying allocation alive.
// Errors: OUT_OF_RANGE if the range does not fit in |buffer|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_subspan(iree_rt_buffer_t buffer, uint64_t offset,
                                                       uint64_t length,
                                                       iree_rt_buffer_t* out_buffer);

// Returns the number of bytes visible through |buffer|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_length(iree_rt_buffer_t buffer,
                                                      uint64_t* out_length);

// Returns the memory type bits |buffer| actually has.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_memory_type(iree_rt_buffer_t buffer,
                                                           iree_rt_memory_type_t* out_memory_type);

// Returns the usage bits |buffer| allows.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_usage(iree_rt_buffer_t buffer,
                                                     iree_rt_buffer_usage_t* out_usage);

// Returns the memory access bits |buffer| allows.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_allowed_access(iree_rt_buffer_t buffer,
                                                              iree_rt_memory_access_t* out_access);

// Maps [offset, offset + length) of |buffer| (|length| may be IREE_RT_WHOLE_BUFFER) for host
// access with |access| (READ, WRITE, DISCARD_WRITE, ...) and returns the host pointer of its
// first byte. The mapping holds a reference to the buffer: the pointer stays valid until
// iree_rt_buffer_unmap, even if the caller releases its handle meanwhile. Every successful map
// must be paired with one unmap, or the buffer is never freed. The host must not touch memory
// that queue operations are using at the same time.
// Errors: FAILED_PRECONDITION for memory that is not HOST_VISIBLE or a buffer without a MAPPING
// usage; PERMISSION_DENIED for |access| beyond the buffer's allowed access; OUT_OF_RANGE if the
// range does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_map(iree_rt_buffer_t buffer,
                                                   iree_rt_memory_access_t access, uint64_t offset,
                                                   uint64_t length, void** out_ptr);

// Ends a mapping of |buffer| made by iree_rt_buffer_map that returned |ptr|, and drops the
// reference the mapping held (which may destroy the buffer).
// Errors: INVALID_ARGUMENT if |ptr| is not a pointer returned by a still-open mapping of this
// buffer handle.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_unmap(iree_rt_buffer_t buffer, void* ptr);

// Copies |length| bytes at |offset| of |buffer| to host memory |target| (synchronously, on the
// calling thread). |length| is an exact byte count (IREE_RT_WHOLE_BUFFER is not accepted);
// |target| may be NULL only when |length| is 0.
// Errors: OUT_OF_RANGE naming the range if it does not fit; FAILED_PRECONDITION or
// PERMISSION_DENIED as for iree_rt_buffer_map.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_read(iree_rt_buffer_t buffer, uint64_t offset,
                                                    void* target, uint64_t length);

// Copies |length| bytes from host memory |source| to |offset| of |buffer| (synchronously).
// |length| is exact; |source| may be NULL only when |length| is 0.
// Errors: as iree_rt_buffer_read.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_write(iree_rt_buffer_t buffer, uint64_t offset,
                                                     const void* source, uint64_t length);

// Fills [offset, offset + length) of |buffer| (|length| may be IREE_RT_WHOLE_BUFFER) by
// repeating the |pattern_length| bytes at |pattern| (synchronously). |pattern_length| must be 1,
// 2 or 4, and |offset| and |length| multiples of it.
// Errors: INVALID_ARGUMENT for a bad pattern length or alignment; OUT_OF_RANGE as above.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_fill(iree_rt_buffer_t buffer, uint64_t offset,
                                                    uint64_t length, const void* pattern,
                                                    size_t pattern_length);

// Copies |length| bytes from |source| at |source_offset| to |target| at |target_offset|
// (synchronously; overlapping ranges of one allocation are handled). |length| is exact.
// Errors: OUT_OF_RANGE if either range does not fit; as iree_rt_buffer_map otherwise.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_copy(iree_rt_buffer_t source, uint64_t source_offset,
                                                    iree_rt_buffer_t target, uint64_t target_offset,
                                                    uint64_t length);

// ===========================================================================================
// Buffer view
// ===========================================================================================
//
// A buffer view is an immutable tensor description: a buffer plus shape, element type and
// encoding. It is how tensors are passed to and from programs.

typedef struct iree_rt_buffer_view_s* iree_rt_buffer_view_t;

// Element types, numbered as IREE numbers them: bits 31..24 the numerical type, bits 7..0 the
// bit width. Sub-byte types (4-bit) are packed densely.
typedef uint32_t iree_rt_element_type_t;
#define IREE_RT_ELEMENT_TYPE_NONE 0x00000000u
#define IREE_RT_ELEMENT_TYPE_OPAQUE_8 0x00000008u
#define IREE_RT_ELEMENT_TYPE_OPAQUE_16 0x00000010u
#define IREE_RT_ELEMENT_TYPE_OPAQUE_32 0x00000020u
#define IREE_RT_ELEMENT_TYPE_OPAQUE_64 0x00000040u
#define IREE_RT_ELEMENT_TYPE_BOOL_8 0x13000008u
#define IREE_RT_ELEMENT_TYPE_INT_4 0x10000004u
#define IREE_RT_ELEMENT_TYPE_SINT_4 0x11000004u
#define IREE_RT_ELEMENT_TYPE_UINT_4 0x12000004u
#define IREE_RT_ELEMENT_TYPE_INT_8 0x10000008u
#define IREE_RT_ELEMENT_TYPE_SINT_8 0x11000008u
#define IREE_RT_ELEMENT_TYPE_UINT_8 0x12000008u
#define IREE_RT_ELEMENT_TYPE_INT_16 0x10000010u
#define IREE_RT_ELEMENT_TYPE_SINT_16 0x11000010u
#define IREE_RT_ELEMENT_TYPE_UINT_16 0x12000010u
#define IREE_RT_ELEMENT_TYPE_INT_32 0x10000020u
#define IREE_RT_ELEMENT_TYPE_SINT_32 0x11000020u
#define IREE_RT_ELEMENT_TYPE_UINT_32 0x12000020u
#define IREE_RT_ELEMENT_TYPE_INT_64 0x10000040u
#define IREE_RT_ELEMENT_TYPE_SINT_64 0x11000040u
#define IREE_RT_ELEMENT_TYPE_UINT_64 0x12000040u
#define IREE_RT_ELEMENT_TYPE_FLOAT_16 0x21000010u
#define IREE_RT_ELEMENT_TYPE_FLOAT_32 0x21000020u
#define IREE_RT_ELEMENT_TYPE_FLOAT_64 0x21000040u
#define IREE_RT_ELEMENT_TYPE_BFLOAT_16 0x22000010u
#define IREE_RT_ELEMENT_TYPE_COMPLEX_FLOAT_64 0x23000040u
#define IREE_RT_ELEMENT_TYPE_COMPLEX_FLOAT_128 0x23000080u
#define IREE_RT_ELEMENT_TYPE_FLOAT_8_E5M2 0x24000008u
#define IREE_RT_ELEMENT_TYPE_FLOAT_8_E4M3_FN 0x25000008u
#define IREE_RT_ELEMENT_TYPE_FLOAT_8_E5M2_FNUZ 0x26000008u
#define IREE_RT_ELEMENT_TYPE_FLOAT_8_E4M3_FNUZ 0x27000008u
#define IREE_RT_ELEMENT_TYPE_FLOAT_8_E8M0_FNU 0x28000008u

// How a buffer view's elements are laid out (IREE's numbering).
typedef enum iree_rt_encoding_type_e {
  // Unspecified layout, interpreted by the program.
  IREE_RT_ENCODING_TYPE_OPAQUE = 0,
  // Dense row-major (C order) elements.
  IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR = 1,
  IREE_RT_ENCODING_TYPE_FORCE32 = 0x7FFFFFFF
} iree_rt_encoding_type_t;

// The largest rank a buffer view may have.
#define IREE_RT_MAX_BUFFER_VIEW_RANK 16

// Returns the bytes needed for |element_count| densely packed elements of |element_type|.
// Errors: INVALID_ARGUMENT for an unknown element type; OUT_OF_RANGE if the size overflows.
IREE_RT_EXPORT iree_rt_status_t iree_rt_element_type_byte_count(iree_rt_element_type_t element_type,
                                                                uint64_t element_count,
                                                                uint64_t* out_byte_count);

// Creates a view of |buffer| with the |rank| dimensions at |shape| (copied; NULL allowed when
// |rank| is 0, which makes a scalar), |element_type| and |encoding|. The view retains |buffer|,
// and iree_rt_buffer_view_buffer returns this same handle.
// Errors: INVALID_ARGUMENT for a negative dimension, rank over IREE_RT_MAX_BUFFER_VIEW_RANK, an
// unknown element type or encoding; OUT_OF_RANGE if the tensor does not fit in |buffer|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_create(iree_rt_buffer_t buffer,
                                                           const int64_t* shape, size_t rank,
                                                           iree_rt_element_type_t element_type,
                                                           iree_rt_encoding_type_t encoding,
                                                           iree_rt_buffer_view_t* out_view);

IREE_RT_EXPORT void iree_rt_buffer_view_retain(iree_rt_buffer_view_t view);
IREE_RT_EXPORT void iree_rt_buffer_view_release(iree_rt_buffer_view_t view);

// Returns the buffer of |view| (borrowed: valid while |view| lives).
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_buffer(iree_rt_buffer_view_t view,
                                                           iree_rt_buffer_t* out_buffer);

// Returns the number of dimensions of |view|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_rank(iree_rt_buffer_view_t view,
                                                         size_t* out_rank);

// Returns dimension |index| of |view|.
// Errors: OUT_OF_RANGE if |index| >= the rank.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_dim(iree_rt_buffer_view_t view, size_t index,
                                                        int64_t* out_dim);

// Copies the shape of |view| to |out_shape| (room for |capacity| dimensions; may be NULL when
// |capacity| is 0) and stores the rank in |out_rank|.
// Errors: OUT_OF_RANGE (nothing written) if |capacity| is smaller than the rank.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_shape(iree_rt_buffer_view_t view,
                                                          size_t capacity, int64_t* out_shape,
                                                          size_t* out_rank);

// Returns the element type of |view|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_element_type(
    iree_rt_buffer_view_t view, iree_rt_element_type_t* out_element_type);

// Returns the encoding of |view|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_encoding(iree_rt_buffer_view_t view,
                                                             iree_rt_encoding_type_t* out_encoding);

// Returns the bytes of tensor data |view| describes (packed size of its elements).
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_byte_length(iree_rt_buffer_view_t view,
                                                                uint64_t* out_byte_length);

// Returns the number of elements of |view| (the product of its dimensions; 1 for a scalar).
IREE_RT_EXPORT iree_rt_status_t iree_rt_buffer_view_element_count(iree_rt_buffer_view_t view,
                                                                  uint64_t* out_element_count);

// ===========================================================================================
// Semaphore and fence
// ===========================================================================================
//
// A semaphore is a 64-bit timeline that only moves forward, or fails for good: once failed,
// every current and later waiter, and every queue operation waiting on it, gets the failure
// (code and message). A fence is a set of (semaphore, value) timepoints, at most one per
// semaphore; queue operations wait on one fence and signal another.

typedef struct iree_rt_semaphore_s* iree_rt_semaphore_t;
typedef struct iree_rt_fence_s* iree_rt_fence_t;

// How a multi-wait is satisfied.
typedef enum iree_rt_wait_mode_e {
  // Every timepoint must be reached (the default).
  IREE_RT_WAIT_MODE_ALL = 0,
  // One reached timepoint is enough.
  IREE_RT_WAIT_MODE_ANY = 1,
  IREE_RT_WAIT_MODE_FORCE32 = 0x7FFFFFFF
} iree_rt_wait_mode_t;

// Waits forever.
#define IREE_RT_INFINITE_TIMEOUT 0x7FFFFFFFFFFFFFFFll

// Creates a semaphore on |device| with value |initial_value|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_create(iree_rt_device_t device,
                                                         uint64_t initial_value,
                                                         iree_rt_semaphore_t* out_semaphore);

IREE_RT_EXPORT void iree_rt_semaphore_retain(iree_rt_semaphore_t semaphore);
IREE_RT_EXPORT void iree_rt_semaphore_release(iree_rt_semaphore_t semaphore);

// Returns the current value of |semaphore|. Once the semaphore has failed this returns (a copy
// of) its failure status instead, with the code and message given to iree_rt_semaphore_fail.
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_query(iree_rt_semaphore_t semaphore,
                                                        uint64_t* out_value);

// Moves |semaphore| to |value| from the host, releasing waiters and queue work up to |value|.
// On local-sync devices, work waiting on this value runs on the calling thread before this
// returns.
// Errors: OUT_OF_RANGE unless |value| is greater than the current value; FAILED_PRECONDITION if
// the semaphore has failed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_signal(iree_rt_semaphore_t semaphore,
                                                         uint64_t value);

// Fails |semaphore| with |code| and |message| (nullable: ""), waking every waiter with that
// status. The first failure sticks; later calls are ignored.
// Errors: INVALID_ARGUMENT if |code| is IREE_RT_STATUS_OK or not a known code.
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_fail(iree_rt_semaphore_t semaphore,
                                                       iree_rt_status_code_t code,
                                                       const char* message);

// Blocks until |semaphore| reaches |value| (NULL), fails (its failure status) or |timeout_ns|
// passes (DEADLINE_EXCEEDED).
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_wait(iree_rt_semaphore_t semaphore,
                                                       uint64_t value, int64_t timeout_ns);

// Waits until all (|mode| ALL) or any (ANY) of the |count| timepoints (|semaphores|[i] reaches
// |values|[i]) are reached. Returns NULL at once for |count| 0. A failed semaphore that decides
// the wait returns its failure; a timeout returns DEADLINE_EXCEEDED.
// Errors: INVALID_ARGUMENT for a NULL or invalid entry (named "semaphores[i]") or unknown |mode|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_semaphore_wait_many(const iree_rt_semaphore_t* semaphores,
                                                            const uint64_t* values, size_t count,
                                                            iree_rt_wait_mode_t mode,
                                                            int64_t timeout_ns);

// Creates an empty fence. An empty fence is always reached.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_create(iree_rt_fence_t* out_fence);

IREE_RT_EXPORT void iree_rt_fence_retain(iree_rt_fence_t fence);
IREE_RT_EXPORT void iree_rt_fence_release(iree_rt_fence_t fence);

// Adds the timepoint "|semaphore| reaches |value|" to |fence| (which retains the semaphore). If
// the semaphore is already in the fence the larger value is kept. Operations already submitted
// with |fence| are not affected.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_insert(iree_rt_fence_t fence,
                                                     iree_rt_semaphore_t semaphore, uint64_t value);

// Creates a fence holding every timepoint of the |count| |fences| (NULL entries are skipped;
// where a semaphore appears twice the larger value is kept).
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_join(const iree_rt_fence_t* fences, size_t count,
                                                   iree_rt_fence_t* out_fence);

// Returns the number of timepoints (distinct semaphores) in |fence|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_size(iree_rt_fence_t fence, size_t* out_size);

// Polls |fence|: NULL if every timepoint is reached, a DEFERRED status if some are not yet, or
// the failure of a failed semaphore.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_query(iree_rt_fence_t fence);

// Signals every semaphore of |fence| to its value from the host (semaphores already past their
// value are skipped).
// Errors: the failure of a failed semaphore (semaphores before it stay signaled).
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_signal(iree_rt_fence_t fence);

// Fails every semaphore of |fence| with |code| and |message| (nullable: "").
// Errors: INVALID_ARGUMENT if |code| is IREE_RT_STATUS_OK or not a known code.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_fail(iree_rt_fence_t fence,
                                                   iree_rt_status_code_t code, const char* message);

// Blocks until every timepoint of |fence| is reached (NULL), a semaphore fails (its failure) or
// |timeout_ns| passes (DEADLINE_EXCEEDED).
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_wait(iree_rt_fence_t fence, int64_t timeout_ns);

// As iree_rt_fence_wait, but one reached timepoint is enough. An empty fence is reached.
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_wait_any(iree_rt_fence_t fence, int64_t timeout_ns);

// Called once by iree_rt_fence_notify: |code| IREE_RT_STATUS_OK and |message| "" when the fence is
// reached, otherwise the failure of a semaphore (CANCELLED if one was destroyed before reaching
// its value). |message| is borrowed: valid only during the call.
typedef void (*iree_rt_fence_callback_t)(void* user_data, iree_rt_status_code_t code,
                                         const char* message);

// Arranges for |callback| to be called exactly once with |user_data| when every timepoint of
// |fence| is reached or one of its semaphores fails, without blocking any thread meanwhile: the
// asynchronous twin of iree_rt_fence_wait (iree_rt_fence_query polls). The timepoints are read
// now; later inserts do not count.
// Threading: if the fence is already decided (an empty fence is reached) the callback runs on the
// calling thread before this returns; otherwise it runs on whichever thread signals or fails the
// deciding semaphore: a device's queue thread, a host thread calling iree_rt_semaphore_signal or
// iree_rt_fence_signal, or the thread that drops the semaphore's last reference. It must not
// block long or wait on work of the same device; hand longer work to a thread of your own. It may
// call any function of this header.
// The fence's semaphores are not kept alive by this call: keep a reference to the fence (or its
// semaphores) until the callback ran, or the callback gets CANCELLED when they are destroyed.
// Errors: INVALID_ARGUMENT for a NULL |callback| (the callback is then never called).
IREE_RT_EXPORT iree_rt_status_t iree_rt_fence_notify(iree_rt_fence_t fence,
                                                     iree_rt_fence_callback_t callback,
                                                     void* user_data);

// ===========================================================================================
// Executable
// ===========================================================================================
//
// An executable is device code compiled by iree-compile (`--compile-mode=hal-executable`, or the
// executables inside a module), with one entry point ("export") per dispatch function.

typedef struct iree_rt_executable_s* iree_rt_executable_t;

// Loads an executable of |format| ("embedded-elf-x86_64", "system-elf-arm_64", ...) from the
// |size| bytes at |data| (copied or consumed before returning) on |device|, with the
// |constant_count| executable-level |constants| (NULL allowed when the count is 0). Malformed
// data is rejected, never executed.
// Errors: INCOMPATIBLE for a format the device cannot load (the message lists those it can);
// INVALID_ARGUMENT for empty data; the loader's error (INVALID_ARGUMENT, INCOMPATIBLE,
// UNIMPLEMENTED, ...) for data it cannot load.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_load(iree_rt_device_t device, const char* format,
                                                        const void* data, size_t size,
                                                        const uint32_t* constants,
                                                        size_t constant_count,
                                                        iree_rt_executable_t* out_executable);

IREE_RT_EXPORT void iree_rt_executable_retain(iree_rt_executable_t executable);
IREE_RT_EXPORT void iree_rt_executable_release(iree_rt_executable_t executable);

// Returns how many exports (entry points) |executable| has; their ordinals are 0..count-1.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_export_count(iree_rt_executable_t executable,
                                                                size_t* out_count);

// Returns the name of export |ordinal|, borrowed from |executable|.
// Errors: OUT_OF_RANGE if |ordinal| >= the export count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_export_name(iree_rt_executable_t executable,
                                                               uint32_t ordinal,
                                                               const char** out_name);

// Returns the ordinal of the export called |name|.
// Errors: NOT_FOUND naming |name| if there is no such export.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_lookup_export(iree_rt_executable_t executable,
                                                                 const char* name,
                                                                 uint32_t* out_ordinal);

// Returns how many 32-bit constants a dispatch of export |ordinal| must pass.
// Errors: OUT_OF_RANGE if |ordinal| >= the export count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_export_constant_count(
    iree_rt_executable_t executable, uint32_t ordinal, size_t* out_count);

// Returns how many buffer bindings a dispatch of export |ordinal| must pass.
// Errors: OUT_OF_RANGE if |ordinal| >= the export count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_executable_export_binding_count(
    iree_rt_executable_t executable, uint32_t ordinal, size_t* out_count);

// ===========================================================================================
// Command buffer
// ===========================================================================================
//
// A command buffer records transfers and dispatches once and is submitted with
// iree_rt_device_queue_execute. Commands between two barriers may run concurrently; a barrier
// orders everything before it against everything after it.
//
// Buffers are given directly, or, when the buffer handle is NULL, through a binding-table
// *slot* (0 .. binding_capacity-1) that each submission fills in, so one reusable command
// buffer can run on different buffers. Ranges given with a slot are checked at submission.
// Recording is externally synchronized; a finalized command buffer may be submitted from any
// thread, and a reusable one several times at once.

typedef struct iree_rt_command_buffer_s* iree_rt_command_buffer_t;

// Command buffer mode bits.
typedef uint32_t iree_rt_command_buffer_mode_t;
// Reusable: may be submitted any number of times.
#define IREE_RT_COMMAND_BUFFER_MODE_DEFAULT 0x0u
// Submitted at most once.
#define IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT 0x1u
// May run while recording (requires ONE_SHOT).
#define IREE_RT_COMMAND_BUFFER_MODE_ALLOW_INLINE_EXECUTION 0x10u
// Skips validation the compiler already did.
#define IREE_RT_COMMAND_BUFFER_MODE_UNVALIDATED 0x20u

// Command category bits: what a command buffer may record.
typedef uint32_t iree_rt_command_category_t;
#define IREE_RT_COMMAND_CATEGORY_TRANSFER 0x1u
#define IREE_RT_COMMAND_CATEGORY_DISPATCH 0x2u
#define IREE_RT_COMMAND_CATEGORY_ANY 0x3u

// Creates a command buffer on |device| for the commands of |categories| with |mode|, and with
// |binding_capacity| binding-table slots (0 if every command names its buffers directly).
// Errors: INVALID_ARGUMENT for unknown mode bits, ALLOW_INLINE_EXECUTION without ONE_SHOT, or
// empty/unknown categories.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_command_buffer_create(iree_rt_device_t device, iree_rt_command_buffer_mode_t mode,
                              iree_rt_command_category_t categories, uint32_t binding_capacity,
                              iree_rt_command_buffer_t* out_command_buffer);

IREE_RT_EXPORT void iree_rt_command_buffer_retain(iree_rt_command_buffer_t command_buffer);
IREE_RT_EXPORT void iree_rt_command_buffer_release(iree_rt_command_buffer_t command_buffer);

// Records a fill of [target_offset, target_offset + length) of |target| (nullable: binding slot
// |target_slot|; |length| may be IREE_RT_WHOLE_BUFFER) with the |pattern_length| (1, 2 or 4)
// bytes at |pattern|.
// Errors: FAILED_PRECONDITION once finalized or without the TRANSFER category; INVALID_ARGUMENT
// for a bad pattern or a target without TRANSFER_TARGET usage; OUT_OF_RANGE for a range or slot
// that does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_command_buffer_fill(
    iree_rt_command_buffer_t command_buffer, iree_rt_buffer_t target, uint32_t target_slot,
    uint64_t target_offset, uint64_t length, const void* pattern, size_t pattern_length);

// Records a write of the |length| bytes at |source| (copied now: the caller may reuse the memory
// on return) to |target| (nullable: slot |target_slot|) at |target_offset|.
// Errors: as iree_rt_command_buffer_fill.
IREE_RT_EXPORT iree_rt_status_t iree_rt_command_buffer_update(
    iree_rt_command_buffer_t command_buffer, const void* source, uint64_t length,
    iree_rt_buffer_t target, uint32_t target_slot, uint64_t target_offset);

// Records a copy of |length| bytes (exact) from |source| (nullable: slot |source_slot|) at
// |source_offset| to |target| (nullable: slot |target_slot|) at |target_offset|.
// Errors: as iree_rt_command_buffer_fill.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_command_buffer_copy(iree_rt_command_buffer_t command_buffer, iree_rt_buffer_t source,
                            uint32_t source_slot, uint64_t source_offset, iree_rt_buffer_t target,
                            uint32_t target_slot, uint64_t target_offset, uint64_t length);

// Records a dispatch of export |export_ordinal| of |executable| over a grid of
// |workgroup_count_x| x |_y| x |_z| workgroups, with the |constant_count| 32-bit |constants| and
// |binding_count| buffer bindings given as parallel arrays: binding i is |buffers|[i] (NULL
// entry: binding slot |slots|[i]) at |offsets|[i] for |lengths|[i] bytes. |slots|, |offsets| and
// |lengths| are nullable, meaning all 0, all 0 and all IREE_RT_WHOLE_BUFFER. The command buffer
// retains |executable| and the buffers. Kernels may require binding offsets aligned to 64 bytes.
// Errors: FAILED_PRECONDITION once finalized or without the DISPATCH category; OUT_OF_RANGE for
// an ordinal past the export count or a range or slot that does not fit; INVALID_ARGUMENT if the
// constant or binding count differs from the export's, or a buffer lacks DISPATCH_STORAGE usage.
IREE_RT_EXPORT iree_rt_status_t iree_rt_command_buffer_dispatch(
    iree_rt_command_buffer_t command_buffer, iree_rt_executable_t executable,
    uint32_t export_ordinal, uint32_t workgroup_count_x, uint32_t workgroup_count_y,
    uint32_t workgroup_count_z, const uint32_t* constants, size_t constant_count,
    const iree_rt_buffer_t* buffers, const uint32_t* slots, const uint64_t* offsets,
    const uint64_t* lengths, size_t binding_count);

// Records an execution barrier: every command before it completes before any command after it
// starts.
// Errors: FAILED_PRECONDITION once finalized.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_command_buffer_barrier(iree_rt_command_buffer_t command_buffer);

// Ends recording. Only finalized command buffers can be submitted.
// Errors: FAILED_PRECONDITION if already finalized.
IREE_RT_EXPORT iree_rt_status_t
iree_rt_command_buffer_finalize(iree_rt_command_buffer_t command_buffer);

// ===========================================================================================
// Queue
// ===========================================================================================
//
// Queue operations are asynchronous. Each starts once every timepoint of |wait_fence| is
// reached, and when its effects are visible it signals every timepoint of |signal_fence|. Either
// fence may be NULL: nothing to wait for / nothing to signal (then completion can only be
// observed through a later operation). Operations are ordered only through fences: two
// operations with no fence between them may run in either order or concurrently.
// The call never blocks on an unreached wait. If a wait fails, or the operation fails, every
// semaphore of |signal_fence| is failed with that status.
// Errors found at call time (bad arguments, ranges) are returned and nothing is enqueued.
// Operations retain what they use (buffers, command buffer, semaphores) until they complete; the
// fences' timepoints are read at call time, so later inserts do not affect the operation.

// Runs the finalized |command_buffer| (nullable: a barrier that only orders) with a binding table
// of |binding_count| entries given as parallel arrays: slot i is |binding_buffers|[i] (NULL for
// a slot the command buffer does not use) at |binding_offsets|[i] for |binding_lengths|[i]
// bytes. |binding_offsets| and |binding_lengths| are nullable, meaning all 0 and all
// IREE_RT_WHOLE_BUFFER. The table is copied.
// Errors: FAILED_PRECONDITION for a command buffer not yet finalized; INVALID_ARGUMENT if the
// table has fewer entries than the slots used; OUT_OF_RANGE for a range that does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_execute(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    iree_rt_command_buffer_t command_buffer, const iree_rt_buffer_t* binding_buffers,
    const uint64_t* binding_offsets, const uint64_t* binding_lengths, size_t binding_count);

// Enqueues a fill of [target_offset, target_offset + length) of |target| (|length| may be
// IREE_RT_WHOLE_BUFFER) with the |pattern_length| (1, 2 or 4) bytes at |pattern|.
// Errors: INVALID_ARGUMENT for a bad pattern or alignment; OUT_OF_RANGE for a bad range.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_fill(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    iree_rt_buffer_t target, uint64_t target_offset, uint64_t length, const void* pattern,
    size_t pattern_length);

// Enqueues a copy of |length| bytes (exact) from |source| at |source_offset| to |target| at
// |target_offset|.
// Errors: OUT_OF_RANGE for a range that does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_copy(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    iree_rt_buffer_t source, uint64_t source_offset, iree_rt_buffer_t target,
    uint64_t target_offset, uint64_t length);

// Enqueues a write of the |length| bytes at host |source| to |target| at |target_offset|. The
// bytes are captured before this returns: the caller may reuse |source| at once.
// Errors: OUT_OF_RANGE for a range that does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_update(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    const void* source, uint64_t length, iree_rt_buffer_t target, uint64_t target_offset);

// Queue-ordered allocation flags.
typedef uint64_t iree_rt_alloca_flags_t;
#define IREE_RT_ALLOCA_FLAG_NONE 0x0ull
// The storage lives until the last reference drops; iree_rt_device_queue_dealloca only orders.
#define IREE_RT_ALLOCA_FLAG_INDETERMINATE_LIFETIME 0x1ull

// Returns a new buffer (+1) of |size| bytes at once, whose storage may be used by operations
// that wait on |signal_fence|. Its storage is released by iree_rt_device_queue_dealloca (or when
// the last reference drops); using it after a dealloca fails cleanly. Unlike
// iree_rt_buffer_allocate's, its bytes are undefined until written (never zeroed).
// Errors: as iree_rt_buffer_allocate.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_alloca(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    iree_rt_memory_type_t memory_type, iree_rt_buffer_usage_t usage, uint64_t size,
    iree_rt_alloca_flags_t flags, iree_rt_buffer_t* out_buffer);

// Releases the storage of |buffer| (made by iree_rt_device_queue_alloca) once |wait_fence| is
// reached, then signals |signal_fence|. For other buffers it only orders.
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_dealloca(iree_rt_device_t device,
                                                              iree_rt_fence_t wait_fence,
                                                              iree_rt_fence_t signal_fence,
                                                              iree_rt_buffer_t buffer);

// Enqueues a barrier: signals |signal_fence| once |wait_fence| is reached (or fails it with a
// failed wait's status).
IREE_RT_EXPORT iree_rt_status_t iree_rt_device_queue_barrier(iree_rt_device_t device,
                                                             iree_rt_fence_t wait_fence,
                                                             iree_rt_fence_t signal_fence);

// ===========================================================================================
// VM: modules, contexts and function calls
// ===========================================================================================
//
// A module is a program compiled by iree-compile (a .vmfb file), or a native module built into
// this library (`check`). Loading verifies the whole module (container, tables, and every
// function's bytecode) before any of it can run; a module that fails is rejected with a message
// naming the function and bytecode offset, and nothing of it runs.
//
// A context links modules: each module's imports are resolved against the modules listed before
// it, then its initializer runs. Functions are looked up in a context and called with a value
// list of arguments; results are appended to another value list. Calls on one context are
// serialized by the library (one call at a time); different contexts run in parallel.

typedef struct iree_rt_module_s* iree_rt_module_t;
typedef struct iree_rt_context_s* iree_rt_context_t;
typedef struct iree_rt_function_s* iree_rt_function_t;
typedef struct iree_rt_value_list_s* iree_rt_value_list_t;
typedef struct iree_rt_parameters_s* iree_rt_parameters_t;

// Module loading flags.
typedef uint32_t iree_rt_module_load_flags_t;
#define IREE_RT_MODULE_LOAD_FLAG_NONE 0x0u
// Copy the bytes into the module: the caller may free them as soon as the load returns.
#define IREE_RT_MODULE_LOAD_FLAG_COPY 0x1u

// Called once, from any thread, when a module loaded without a copy no longer needs its bytes.
typedef void (*iree_rt_module_release_callback_t)(void* user_data);

// Loads the module file at |path| (UTF-8) by mapping it read-only: nothing is copied. The file
// must not be modified while the module lives.
// Errors: NOT_FOUND / PERMISSION_DENIED naming |path| when it cannot be opened; INVALID_ARGUMENT
// (or INCOMPATIBLE for an unsupported bytecode version or feature) naming what is malformed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_load_file(iree_rt_instance_t instance,
                                                         const char* path,
                                                         iree_rt_module_t* out_module);

// Loads a module from the |size| bytes at |data|. With IREE_RT_MODULE_LOAD_FLAG_COPY the bytes
// are copied. Without it nothing is copied: |data| must stay valid and unchanged until the
// module is destroyed, which happens after its last reference is dropped (the module handle,
// every context that links it, and every value that holds its read-only data); at that point
// |release_callback| (nullable) is called with |user_data|. If the load fails the callback is
// not called and the caller keeps ownership of |data|. Any alignment of |data| is accepted;
// with less than 64 bytes, constants a program would use in place are copied by it instead.
// Errors: as iree_rt_module_load_file; INVALID_ARGUMENT for unknown flags.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_load_memory(
    iree_rt_instance_t instance, const void* data, size_t size, iree_rt_module_load_flags_t flags,
    iree_rt_module_release_callback_t release_callback, void* user_data,
    iree_rt_module_t* out_module);

// Creates the native `check` module (the expect_* functions IREE test programs call). Link it
// before the programs that use it. A failed expectation does not stop the program; the call
// that made it then returns FAILED_PRECONDITION listing every failed expectation.
// The module lives in the companion library libiree_rt_tooling.so.1, installed next to this one
// and loaded on the first call (from this library's directory, then the loader's search path):
// UNIMPLEMENTED, naming every place tried, when it is absent; INCOMPATIBLE when it comes from
// another build.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_create_check(iree_rt_instance_t instance,
                                                            iree_rt_module_t* out_module);

// Creates the native `hal` module over |devices| (|device_count| >= 1; retained by the module).
// Every program compiled for a device (tensor code) imports it: link it first. The program picks
// among the devices by its target (`local*` for llvm-cpu, `cuda`, ...) in the order given.
// Errors: INVALID_ARGUMENT for no devices or a NULL entry.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_create_hal(iree_rt_instance_t instance,
                                                          const iree_rt_device_t* devices,
                                                          size_t device_count,
                                                          iree_rt_module_t* out_module);

// Parameters: programs compiled with their weights outside the module (iree-compile
// --iree-parameter-export, or `#stream.parameter.named` globals) import the native
// `io_parameters` module, which loads each weight by scope and key. A parameter set holds the
// parameters of one scope, gathered from archive files, archives or single parameters in the
// caller's memory, and splats; keys are unique within a set. Sets are filled first, then given
// to iree_rt_module_create_io_parameters, which freezes them: from then on every `_add_*` fails
// with FAILED_PRECONDITION, so the module's loads never race with additions. A set is externally
// synchronized while it is being filled (except that an `_add_*` racing with the call that
// freezes the set either lands before it or fails); a frozen set may be read from any thread.
// Errors of the `_add_*` functions leave the set as it was: nothing of a refused source is added.

// How the bytes of an archive file are reached.
typedef enum iree_rt_parameter_mode_e {
  // Map the file read-only; CPU devices use the pages in place (no copy when a parameter is
  // 64-byte aligned), and processes share the page cache. The file must not change meanwhile.
  IREE_RT_PARAMETER_MODE_MMAP = 0,
  // Read the whole file into memory when it is added; it may change or go away afterwards.
  IREE_RT_PARAMETER_MODE_PRELOAD = 1,
  // Read only the archive's header; each load reads the parameter's bytes from the file.
  IREE_RT_PARAMETER_MODE_FILE = 2,
  IREE_RT_PARAMETER_MODE_FORCE_32 = 0x7FFFFFFF
} iree_rt_parameter_mode_t;

// Flags of the `_add_*memory` functions.
typedef uint32_t iree_rt_parameters_flags_t;
#define IREE_RT_PARAMETERS_FLAG_NONE 0x0u
// Copy the bytes (to 64-byte aligned memory): the caller may free them as soon as the call
// returns.
#define IREE_RT_PARAMETERS_FLAG_COPY 0x1u
// iree_rt_parameters_add_memory only, without COPY: programs may write the parameter (the
// `io_parameters.scatter` calls of the compiler's parameter encoder) into the caller's memory,
// which must then be writable. Other parameters are read-only: a scatter into them fails.
#define IREE_RT_PARAMETERS_FLAG_WRITABLE 0x2u

// Creates an empty parameter set for |scope| (UTF-8, copied; NULL or "" is the unscoped scope
// that programs name with `#stream.parameter.named<"key">`).
// In a library built without parameter archives (IREE_RT_PARAMETERS=OFF, the default of the
// size-optimized build) every iree_rt_parameters_* function returning a status, and
// iree_rt_module_create_io_parameters, return UNIMPLEMENTED.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_create(iree_rt_instance_t instance,
                                                          const char* scope,
                                                          iree_rt_parameters_t* out_parameters);
IREE_RT_EXPORT void iree_rt_parameters_retain(iree_rt_parameters_t parameters);
IREE_RT_EXPORT void iree_rt_parameters_release(iree_rt_parameters_t parameters);

// Adds every parameter of the archive file at |path| (UTF-8); the format is chosen by the
// extension: .irpa, .safetensors or .gguf. The file stays open (or mapped) while the set, or a
// parameter loaded from it, lives.
// Errors: NOT_FOUND / PERMISSION_DENIED naming |path| when it cannot be opened; UNIMPLEMENTED
// for another extension; INVALID_ARGUMENT (or OUT_OF_RANGE) naming the file, and the key for a
// bad entry, when the archive is malformed; INVALID_ARGUMENT for an unknown |mode|; and, for
// every `_add_*` function, ALREADY_EXISTS naming the key and both of its sources when a key is
// already in the set, FAILED_PRECONDITION once the set is frozen.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_add_file(iree_rt_parameters_t parameters,
                                                            const char* path,
                                                            iree_rt_parameter_mode_t mode);

// Adds every parameter of the archive of |format| ("irpa", "safetensors" or "gguf") in the |size|
// bytes at |data|. Memory follows iree_rt_module_load_memory's rules: with
// IREE_RT_PARAMETERS_FLAG_COPY the bytes are copied and |release_callback| (nullable) is called
// at once on success. Without it nothing is copied: |data| must stay valid and unchanged until
// no longer needed, which is after the set, every module made from it and every context that
// loaded a parameter from it are released; |release_callback| is then called once, from any
// thread, with |user_data|. If the call fails the callback is not called and the caller keeps
// ownership of |data|. Memory the archive lays out 64-byte aligned is used in place by CPU
// devices.
// Errors: INVALID_ARGUMENT for an unknown |format| or unknown flags; the reader's error (naming
// "memory archive N (format)", and the key) for a malformed or truncated archive.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_add_archive_memory(
    iree_rt_parameters_t parameters, const char* format, const void* data, size_t size,
    iree_rt_parameters_flags_t flags, iree_rt_module_release_callback_t release_callback,
    void* user_data);

// Adds parameter |key| (UTF-8, copied) whose bytes are the |size| bytes at |data|, with the
// memory rules of iree_rt_parameters_add_archive_memory. CPU devices use 64-byte aligned bytes
// in place (a program may then read them for as long as it holds the parameter). With
// IREE_RT_PARAMETERS_FLAG_WRITABLE programs may also write them.
// Errors: INVALID_ARGUMENT for unknown flags, or WRITABLE with COPY.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_add_memory(
    iree_rt_parameters_t parameters, const char* key, const void* data, size_t size,
    iree_rt_parameters_flags_t flags, iree_rt_module_release_callback_t release_callback,
    void* user_data);

// Adds parameter |key| (UTF-8, copied) of |length| bytes: the |pattern_length| bytes at |pattern|
// (copied) repeated, in memory order.
// Errors: INVALID_ARGUMENT naming |key| when |pattern_length| is not 1, 2, 4, 8 or 16 or
// |length| is not a multiple of it.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_add_splat(iree_rt_parameters_t parameters,
                                                             const char* key, const void* pattern,
                                                             size_t pattern_length,
                                                             uint64_t length);

// Returns the set's scope ("" for the unscoped scope), borrowed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_scope(iree_rt_parameters_t parameters,
                                                         const char** out_scope);

// Returns how many parameters the set holds; their indices are 0..count-1, in the order they
// were added (an archive's parameters in the archive's own order).
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_count(iree_rt_parameters_t parameters,
                                                         size_t* out_count);

// Returns the key (borrowed, valid while the set lives) and the length in bytes of parameter
// |index|.
// Errors: OUT_OF_RANGE if |index| >= the count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_parameters_entry(iree_rt_parameters_t parameters,
                                                         size_t index, const char** out_key,
                                                         uint64_t* out_length);

// Creates the native `io_parameters` module over the |parameter_count| sets |parameters| (at
// most one per scope; retained by the module), and freezes the sets. Link it after the hal
// module and before the programs that import it. A load of a key that no set holds fails the
// program's call (usually its initializer, so iree_rt_context_create) with NOT_FOUND naming the
// key and scope; a scope without a set fails likewise, naming the scope.
// Errors: INVALID_ARGUMENT naming the scope when two sets have the same scope. The sets are
// frozen only when the module is created.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_create_io_parameters(
    iree_rt_instance_t instance, const iree_rt_parameters_t* parameters, size_t parameter_count,
    iree_rt_module_t* out_module);

IREE_RT_EXPORT void iree_rt_module_retain(iree_rt_module_t module);
IREE_RT_EXPORT void iree_rt_module_release(iree_rt_module_t module);

// Returns the module's name ("module" for programs compiled without one), borrowed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_name(iree_rt_module_t module,
                                                    const char** out_name);

// Returns how many functions |module| exports; their indices are 0..count-1.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_function_count(iree_rt_module_t module,
                                                              size_t* out_count);

// Returns the name of exported function |index| (borrowed). Names starting with "__" are the
// compiler's (initializers); tools usually hide them.
// Errors: OUT_OF_RANGE if |index| >= the function count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_function_name(iree_rt_module_t module,
                                                             size_t index, const char** out_name);

// Returns the calling convention of exported function |index| (borrowed), IREE's string:
// "0" + argument types + "_" + result types, each one of i (i32), I (i64), f (f32), F (f64),
// r (reference: buffer view, list, ...), or "v" for none. Example: "0rr_r".
// Errors: OUT_OF_RANGE if |index| >= the function count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_function_signature(iree_rt_module_t module,
                                                                  size_t index,
                                                                  const char** out_signature);

// Returns how many reflection attributes exported function |index| has (sorted by key).
// Errors: OUT_OF_RANGE if |index| >= the function count.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_function_attr_count(iree_rt_module_t module,
                                                                   size_t index,
                                                                   size_t* out_count);

// Returns attribute |attr_index| of exported function |index| as borrowed strings, e.g.
// "iree.abi.declaration" = "sync func @main(%input0: tensor<4xf32>) -> (%output0: ...)".
// Errors: OUT_OF_RANGE if either index is out of range.
IREE_RT_EXPORT iree_rt_status_t iree_rt_module_function_attr(iree_rt_module_t module,
                                                             size_t index, size_t attr_index,
                                                             const char** out_key,
                                                             const char** out_value);

// Creates a context linking the |module_count| |modules| in order (each may import from those
// before it), then runs each module's initializer. The context retains the modules.
// Errors: NOT_FOUND naming a required module or function that no earlier module provides;
// INVALID_ARGUMENT for an import whose signature differs from the export it resolves to; the
// status of a failing initializer.
IREE_RT_EXPORT iree_rt_status_t iree_rt_context_create(iree_rt_instance_t instance,
                                                       const iree_rt_module_t* modules,
                                                       size_t module_count,
                                                       iree_rt_context_t* out_context);

IREE_RT_EXPORT void iree_rt_context_retain(iree_rt_context_t context);
IREE_RT_EXPORT void iree_rt_context_release(iree_rt_context_t context);

// Sets |limit| of |context| to |value| for its later calls (waiting for a call in progress to
// end). Lowering MAX_CONTEXT_MEMORY below what the context holds fails only later allocations.
// Errors: INVALID_ARGUMENT for an unknown |limit|, a |value| of 0, or MAX_MODULE_SIZE (modules
// are loaded by the instance).
IREE_RT_EXPORT iree_rt_status_t iree_rt_context_set_limit(iree_rt_context_t context,
                                                          iree_rt_limit_t limit, uint64_t value);

// Returns the value of |limit| for |context|.
// Errors: INVALID_ARGUMENT for an unknown |limit|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_context_get_limit(iree_rt_context_t context,
                                                          iree_rt_limit_t limit,
                                                          uint64_t* out_value);

// Returns the bytes |context| holds now against IREE_RT_LIMIT_MAX_CONTEXT_MEMORY: its modules'
// globals plus the live buffers and lists its programs allocated (including those the caller
// still holds). May be read while the context runs.
IREE_RT_EXPORT iree_rt_status_t iree_rt_context_memory_used(iree_rt_context_t context,
                                                            uint64_t* out_bytes);

// Finds the function |name| ("module.function", or a bare name looked up in the last module)
// and returns it with one reference the caller owns. A function retains its context.
// Errors: NOT_FOUND naming |name|.
IREE_RT_EXPORT iree_rt_status_t iree_rt_context_lookup_function(iree_rt_context_t context,
                                                                const char* name,
                                                                iree_rt_function_t* out_function);

IREE_RT_EXPORT void iree_rt_function_retain(iree_rt_function_t function);
IREE_RT_EXPORT void iree_rt_function_release(iree_rt_function_t function);

// Returns the function's exported name (without the module prefix) and calling convention (as
// iree_rt_module_function_signature), borrowed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_function_name(iree_rt_function_t function,
                                                      const char** out_name);
IREE_RT_EXPORT iree_rt_status_t iree_rt_function_signature(iree_rt_function_t function,
                                                           const char** out_signature);

// Returns the value of reflection attribute |key| (borrowed), or NULL in |out_value| if the
// function has no such attribute.
IREE_RT_EXPORT iree_rt_status_t iree_rt_function_attr(iree_rt_function_t function,
                                                      const char* key, const char** out_value);

// Calls |function| synchronously with the values of |arguments| (nullable: no arguments), in
// order, and appends its results to |results| (nullable when it returns nothing). Arguments are
// borrowed for the call. Scalars must match the signature exactly (i32 for "i", ...); a NULL
// reference is allowed where the program accepts one.
// Errors: INVALID_ARGUMENT naming the first argument that does not match the signature (count
// or type); otherwise the program's own failure (the code its `vm.fail` or trap gives, e.g.
// OUT_OF_RANGE for an out-of-bounds access) with a message that ends in a VM backtrace
// (module.function:offset and source locations). |results| is unchanged on error.
IREE_RT_EXPORT iree_rt_status_t iree_rt_function_call(iree_rt_function_t function,
                                                      iree_rt_value_list_t arguments,
                                                      iree_rt_value_list_t results);

// ---- Value lists ------------------------------------------------------------------------
// A value list holds values of any type: the arguments and results of calls, and the `vm.list`
// objects programs create and return. A list is externally synchronized.

typedef enum iree_rt_value_type_e {
  IREE_RT_VALUE_TYPE_NONE = 0,  // an element never set
  IREE_RT_VALUE_TYPE_I8 = 1,
  IREE_RT_VALUE_TYPE_I16 = 2,
  IREE_RT_VALUE_TYPE_I32 = 3,
  IREE_RT_VALUE_TYPE_I64 = 4,
  IREE_RT_VALUE_TYPE_F32 = 5,
  IREE_RT_VALUE_TYPE_F64 = 6,
  IREE_RT_VALUE_TYPE_REF = 7,  // an object (or NULL reference): see _get_ref_type
  IREE_RT_VALUE_TYPE_FORCE_32 = 0x7FFFFFFF
} iree_rt_value_type_t;

// Creates an empty list with room for |capacity| values (it grows as needed).
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_create(size_t capacity,
                                                          iree_rt_value_list_t* out_list);
IREE_RT_EXPORT void iree_rt_value_list_retain(iree_rt_value_list_t list);
IREE_RT_EXPORT void iree_rt_value_list_release(iree_rt_value_list_t list);

IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_size(iree_rt_value_list_t list,
                                                        size_t* out_size);
// Removes every value (releasing the objects it held).
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_clear(iree_rt_value_list_t list);

// Append one value. Objects are retained by the list; |view| and |element| are nullable
// (append a NULL reference).
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_i32(iree_rt_value_list_t list,
                                                            int32_t value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_i64(iree_rt_value_list_t list,
                                                            int64_t value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_f32(iree_rt_value_list_t list,
                                                            float value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_f64(iree_rt_value_list_t list,
                                                            double value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_buffer_view(iree_rt_value_list_t list,
                                                                    iree_rt_buffer_view_t view);
// Appends the timepoints |fence| holds now (NULL appends a null fence). Functions compiled with
// --iree-execution-model=async-external take a wait and a signal fence as their last two
// arguments: they return at once, start once the wait fence is reached and signal (or fail) the
// signal fence when their results are ready. Inserting into |fence| later does not change the
// value already pushed.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_fence(iree_rt_value_list_t list,
                                                              iree_rt_fence_t fence);
// Appends |element| as a nested list (a `vm.list` argument). A list cannot contain itself.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_push_list(iree_rt_value_list_t list,
                                                             iree_rt_value_list_t element);

// Returns the type of value |index|.
// Errors (all getters): OUT_OF_RANGE if |index| >= the size.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_type(iree_rt_value_list_t list,
                                                            size_t index,
                                                            iree_rt_value_type_t* out_type);
// Returns the type name of reference |index| ("hal.buffer_view", "vm.list", "vm.buffer",
// "hal.buffer", ...), or "" for a NULL reference. Borrowed (static storage).
// Errors: INVALID_ARGUMENT if the value is not a reference.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_ref_type(iree_rt_value_list_t list,
                                                                size_t index,
                                                                const char** out_type_name);

// Scalar getters. Integer getters accept any integer value that fits losslessly (an i8 read as
// i32 is sign-extended; an i64 read as i32 must fit); float getters accept f32 and f64 (f64
// read as f32 is rounded).
// Errors: INVALID_ARGUMENT if the value has another kind (a float read as an integer, a
// reference, ...) or OUT_OF_RANGE if it does not fit.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_i32(iree_rt_value_list_t list,
                                                           size_t index, int32_t* out_value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_i64(iree_rt_value_list_t list,
                                                           size_t index, int64_t* out_value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_f32(iree_rt_value_list_t list,
                                                           size_t index, float* out_value);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_f64(iree_rt_value_list_t list,
                                                           size_t index, double* out_value);

// Reference getters: return the object with one reference the caller owns (NULL for a NULL
// reference). Every call returns a new handle to the same object.
// Errors: INVALID_ARGUMENT if the value is not a reference of that type.
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_buffer_view(iree_rt_value_list_t list,
                                                                   size_t index,
                                                                   iree_rt_buffer_view_t* out_view);
IREE_RT_EXPORT iree_rt_status_t iree_rt_value_list_get_list(iree_rt_value_list_t list,
                                                            size_t index,
                                                            iree_rt_value_list_t* out_list);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // IREE_RT_H_

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt.i: the SWIG interface shared by the Java and C# bindings.
//
// SWIG reads include/iree_rt.h itself; this file only says how its conventions map to a managed
// language. A language's thin .i (bindings/java/iree_rt_java.i, bindings/csharp/iree_rt_csharp.i)
// defines the typemaps for a handful of abstract patterns, then includes this file:
//
//   RT_HANDLE_TYPEMAPS(CTYPE, CLASS)  an opaque handle passed in: the language's CLASS (Device,
//                                     Module, ...). The typemap pins the object for the call (it
//                                     cannot be destroyed by a concurrent close/Dispose) and
//                                     throws if it was closed. A NULL handle is a null object.
//   iree_rt_status_t                  a status return becomes nothing on success, an
//                                     IreeRtException(code, message) otherwise (status freed).
//   iree_rt_status_t RT_RET_<KIND>    the same for a function whose `out_` parameter becomes the
//                                     return value: KIND is HANDLE (a raw handle that the
//                                     language wraps at once), LONG, INT, UINT, FLOAT, STRING.
//   RT_OUT_TYPEMAPS(CTYPE, KIND)      `CTYPE* out_x` hidden from the caller, stored as the result.
//
// The lists below say which functions return what. A function missing from them keeps
// RT_RET_VOID; keep them in sync with iree_rt.h when functions are added (the tests call every
// wrapped function at least once).

// The exported functions keep their C names minus the prefix: device_create, buffer_view_rank...
%rename("%(strip:[iree_rt_])s") "";

// The C constants and enums are re-declared idiomatically by each language (ElementType,
// StatusCode, ...): SWIG would turn 64-bit unsigned literals into BigInteger.
%rename("$ignore", regexmatch$name="^IREE_RT_") "";
%rename("$ignore", regexmatch$name="^iree_rt_.*_e$") "";
// Scalars: Java has no unsigned types, so every 64-bit count, size and offset is a signed
// `long` in both languages (values past 2^63 do not occur), and 32-bit bit sets are `int`.
%apply long long { uint64_t, int64_t, size_t };
%apply int { int32_t, uint32_t };
%apply int { iree_rt_status_code_t, iree_rt_value_type_t, iree_rt_encoding_type_t,
             iree_rt_wait_mode_t, iree_rt_memory_statistic_t, iree_rt_limit_t };
%apply int { iree_rt_memory_type_t, iree_rt_buffer_usage_t, iree_rt_memory_access_t,
             iree_rt_element_type_t, iree_rt_module_load_flags_t, iree_rt_parameter_mode_t,
             iree_rt_parameters_flags_t };

// Not wrapped: the status accessors (statuses never reach the language), retain/release (the
// classes own exactly one reference, dropped by release_handle below), raw mappings (a pointer
// that outlives close() could crash the VM), function-pointer lookups, and the HAL command and
// executable layer (dispatch programs are driven through compiled modules here).
%ignore iree_rt_get_proc;
%ignore iree_rt_status_code;
%ignore iree_rt_status_message;
%ignore iree_rt_status_free;
%ignore iree_rt_status_code_name;
%rename("$ignore", regexmatch$name="^iree_rt_.*_(retain|release)$") "";
%ignore iree_rt_buffer_map;
%ignore iree_rt_buffer_unmap;
%ignore iree_rt_buffer_fill;
%ignore iree_rt_buffer_view_shape;
%ignore iree_rt_module_function_attr;
%ignore iree_rt_parameters_entry;  // two outputs: rt_parameters_entry_key / _length below
%ignore iree_rt_semaphore_wait_many;
%ignore iree_rt_fence_join;
// A C callback: each language's .i has its own glue (FenceNotifier.java, Fence.cs).
%ignore iree_rt_fence_notify;
%rename("$ignore", regexmatch$name="^iree_rt_(executable|command_buffer|device_queue)_") "";

%{
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "iree_rt.h"
%}

// ---- Handle kinds and the one release entry point the classes call ----------------------------
%rename(HandleKind) rt_handle_kind;
%inline %{
enum rt_handle_kind {
  RT_KIND_INSTANCE_OPTIONS = 1,
  RT_KIND_INSTANCE = 2,
  RT_KIND_DEVICE_INFO_LIST = 3,
  RT_KIND_DEVICE_OPTIONS = 4,
  RT_KIND_DEVICE = 5,
  RT_KIND_BUFFER = 6,
  RT_KIND_BUFFER_VIEW = 7,
  RT_KIND_SEMAPHORE = 8,
  RT_KIND_FENCE = 9,
  RT_KIND_MODULE = 10,
  RT_KIND_CONTEXT = 11,
  RT_KIND_FUNCTION = 12,
  RT_KIND_VALUE_LIST = 13,
  RT_KIND_PARAMETERS = 14
};

// Drops the reference a binding object owns. Called once per object, by close/Dispose or by the
// GC safety net, never while a call uses the handle.
static void rt_release_handle(int kind, long long handle) {
  void* h = (void*)(intptr_t)handle;
  switch (kind) {
    case RT_KIND_INSTANCE_OPTIONS:
      iree_rt_instance_options_release((iree_rt_instance_options_t)h);
      break;
    case RT_KIND_INSTANCE: iree_rt_instance_release((iree_rt_instance_t)h); break;
    case RT_KIND_DEVICE_INFO_LIST:
      iree_rt_device_info_list_release((iree_rt_device_info_list_t)h);
      break;
    case RT_KIND_DEVICE_OPTIONS: iree_rt_device_options_release((iree_rt_device_options_t)h); break;
    case RT_KIND_DEVICE: iree_rt_device_release((iree_rt_device_t)h); break;
    case RT_KIND_BUFFER: iree_rt_buffer_release((iree_rt_buffer_t)h); break;
    case RT_KIND_BUFFER_VIEW: iree_rt_buffer_view_release((iree_rt_buffer_view_t)h); break;
    case RT_KIND_SEMAPHORE: iree_rt_semaphore_release((iree_rt_semaphore_t)h); break;
    case RT_KIND_FENCE: iree_rt_fence_release((iree_rt_fence_t)h); break;
    case RT_KIND_MODULE: iree_rt_module_release((iree_rt_module_t)h); break;
    case RT_KIND_CONTEXT: iree_rt_context_release((iree_rt_context_t)h); break;
    case RT_KIND_FUNCTION: iree_rt_function_release((iree_rt_function_t)h); break;
    case RT_KIND_VALUE_LIST: iree_rt_value_list_release((iree_rt_value_list_t)h); break;
    case RT_KIND_PARAMETERS: iree_rt_parameters_release((iree_rt_parameters_t)h); break;
    default: break;
  }
}

// Bytes the C heap (malloc) has handed out and not taken back, in the whole process; -1 where
// the C library cannot tell. Leak tests compare it before and after many create/close cycles:
// unlike the resident set size it does not include freed memory the allocator keeps.
static long long rt_native_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return (long long)info.uordblks;
#else
  return -1;
#endif
}

// Adds a reference for a second binding object over the same native object (a buffer view's
// buffer, which iree_rt_buffer_view_buffer returns borrowed).
static long long rt_retain_buffer(long long handle) {
  iree_rt_buffer_retain((iree_rt_buffer_t)(intptr_t)handle);
  return handle;
}
%}

// ---- Opaque handles passed in -----------------------------------------------------------------
RT_HANDLE_TYPEMAPS(iree_rt_instance_options_t, InstanceOptions)
RT_HANDLE_TYPEMAPS(iree_rt_instance_t, Instance)
RT_HANDLE_TYPEMAPS(iree_rt_device_info_list_t, DeviceInfoList)
RT_HANDLE_TYPEMAPS(iree_rt_device_options_t, DeviceOptions)
RT_HANDLE_TYPEMAPS(iree_rt_device_t, Device)
#ifdef SWIGCSHARP
RT_HANDLE_TYPEMAPS(iree_rt_buffer_t, DeviceBuffer)  // "Buffer" would clash with System.Buffer
#else
RT_HANDLE_TYPEMAPS(iree_rt_buffer_t, Buffer)
#endif
RT_HANDLE_TYPEMAPS(iree_rt_buffer_view_t, Tensor)
RT_HANDLE_TYPEMAPS(iree_rt_semaphore_t, Semaphore)
RT_HANDLE_TYPEMAPS(iree_rt_fence_t, Fence)
RT_HANDLE_TYPEMAPS(iree_rt_module_t, Module)
RT_HANDLE_TYPEMAPS(iree_rt_context_t, Context)
RT_HANDLE_TYPEMAPS(iree_rt_function_t, Function)
RT_HANDLE_TYPEMAPS(iree_rt_value_list_t, ValueList)
RT_HANDLE_TYPEMAPS(iree_rt_parameters_t, Parameters)

// ---- Out-parameters: hidden, returned instead of the status -----------------------------------
RT_OUT_TYPEMAPS(iree_rt_instance_options_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_instance_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_device_info_list_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_device_options_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_device_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_buffer_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_buffer_view_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_semaphore_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_fence_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_module_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_context_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_function_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_value_list_t, HANDLE)
RT_OUT_TYPEMAPS(iree_rt_parameters_t, HANDLE)
RT_OUT_TYPEMAPS(size_t, LONG)
RT_OUT_TYPEMAPS(uint64_t, LONG)
RT_OUT_TYPEMAPS(int64_t, LONG)
RT_OUT_TYPEMAPS(int32_t, INT)
RT_OUT_TYPEMAPS(uint32_t, UINT)
RT_OUT_TYPEMAPS(iree_rt_value_type_t, INT)
RT_OUT_TYPEMAPS(iree_rt_encoding_type_t, INT)
RT_OUT_TYPEMAPS(float, FLOAT)
RT_OUT_TYPEMAPS(double, DOUBLE)
RT_OUT_TYPEMAPS(const char*, STRING)

// SWIG lets `T*` typemaps match `const T*` too: the const arrays are inputs.
%typemap(argout) const int64_t* shape ""
%typemap(argout) const iree_rt_module_t* modules ""
%typemap(argout) const iree_rt_device_t* devices ""
%typemap(argout) const iree_rt_parameters_t* parameters ""

%apply iree_rt_status_t RT_RET_HANDLE {
  iree_rt_status_t iree_rt_instance_options_create, iree_rt_status_t iree_rt_instance_create,
  iree_rt_status_t iree_rt_instance_enumerate_devices,
  iree_rt_status_t iree_rt_device_options_create,
  iree_rt_status_t iree_rt_device_create, iree_rt_status_t iree_rt_buffer_allocate,
  iree_rt_status_t iree_rt_buffer_import_host, iree_rt_status_t iree_rt_buffer_subspan,
  iree_rt_status_t iree_rt_buffer_view_create, iree_rt_status_t iree_rt_buffer_view_buffer,
  iree_rt_status_t iree_rt_semaphore_create, iree_rt_status_t iree_rt_fence_create,
  iree_rt_status_t iree_rt_module_load_file, iree_rt_status_t iree_rt_module_load_memory,
  iree_rt_status_t iree_rt_module_create_check, iree_rt_status_t iree_rt_module_create_hal,
  iree_rt_status_t iree_rt_context_create, iree_rt_status_t iree_rt_context_lookup_function,
  iree_rt_status_t iree_rt_value_list_create, iree_rt_status_t iree_rt_value_list_get_buffer_view,
  iree_rt_status_t iree_rt_value_list_get_list, iree_rt_status_t iree_rt_parameters_create,
  iree_rt_status_t iree_rt_module_create_io_parameters
};
%apply iree_rt_status_t RT_RET_LONG {
  iree_rt_status_t iree_rt_instance_driver_count, iree_rt_status_t iree_rt_device_info_list_count,
  iree_rt_status_t iree_rt_device_info_list_property_count,
  iree_rt_status_t iree_rt_device_query_i64,
  iree_rt_status_t iree_rt_device_memory_statistic, iree_rt_status_t iree_rt_buffer_length,
  iree_rt_status_t iree_rt_element_type_byte_count, iree_rt_status_t iree_rt_buffer_view_rank,
  iree_rt_status_t iree_rt_buffer_view_dim, iree_rt_status_t iree_rt_buffer_view_byte_length,
  iree_rt_status_t iree_rt_buffer_view_element_count, iree_rt_status_t iree_rt_semaphore_query,
  iree_rt_status_t iree_rt_fence_size, iree_rt_status_t iree_rt_module_function_count,
  iree_rt_status_t iree_rt_module_function_attr_count, iree_rt_status_t iree_rt_value_list_size,
  iree_rt_status_t iree_rt_value_list_get_i64, iree_rt_status_t iree_rt_context_get_limit,
  iree_rt_status_t iree_rt_context_memory_used, iree_rt_status_t iree_rt_parameters_count
};
%apply iree_rt_status_t RT_RET_INT {
  iree_rt_status_t iree_rt_buffer_view_encoding, iree_rt_status_t iree_rt_value_list_get_type,
  iree_rt_status_t iree_rt_value_list_get_i32
};
%apply iree_rt_status_t RT_RET_UINT {
  iree_rt_status_t iree_rt_buffer_memory_type, iree_rt_status_t iree_rt_buffer_usage,
  iree_rt_status_t iree_rt_buffer_allowed_access, iree_rt_status_t iree_rt_buffer_view_element_type
};
%apply iree_rt_status_t RT_RET_FLOAT { iree_rt_status_t iree_rt_value_list_get_f32 };
%apply iree_rt_status_t RT_RET_DOUBLE { iree_rt_status_t iree_rt_value_list_get_f64 };
%apply iree_rt_status_t RT_RET_STRING {
  iree_rt_status_t iree_rt_instance_driver_name, iree_rt_status_t iree_rt_device_info_list_name,
  iree_rt_status_t iree_rt_device_info_list_uri,
  iree_rt_status_t iree_rt_device_info_list_property_key,
  iree_rt_status_t iree_rt_device_info_list_property_value, iree_rt_status_t iree_rt_device_id,
  iree_rt_status_t iree_rt_module_name, iree_rt_status_t iree_rt_module_function_name,
  iree_rt_status_t iree_rt_module_function_signature, iree_rt_status_t iree_rt_function_name,
  iree_rt_status_t iree_rt_function_signature, iree_rt_status_t iree_rt_function_attr,
  iree_rt_status_t iree_rt_value_list_get_ref_type, iree_rt_status_t iree_rt_parameters_scope
};

#define IREE_RT_EXPORT
%include "iree_rt.h"

// ---- Parameter sets: what iree_rt_parameters_entry's two outputs and borrowed memory need -----
// iree_rt_parameters_entry, one output each.
%apply iree_rt_status_t RT_RET_STRING { iree_rt_status_t rt_parameters_entry_key };
%apply iree_rt_status_t RT_RET_LONG { iree_rt_status_t rt_parameters_entry_length };
// The memory-lending forms of iree_rt_parameters_add_memory / _add_archive_memory (the plain
// wrappers copy). The language .i maps (borrowed, borrowed_size, borrowed_release,
// borrowed_cookie) to its pinned memory: the runtime calls borrowed_release(borrowed_cookie) when
// it no longer needs the bytes (on any thread), and never when the add fails.
%inline %{
static iree_rt_status_t rt_parameters_entry_key(iree_rt_parameters_t parameters, size_t index,
                                                const char** out_key) {
  uint64_t length = 0;
  return iree_rt_parameters_entry(parameters, index, out_key, &length);
}
static iree_rt_status_t rt_parameters_entry_length(iree_rt_parameters_t parameters, size_t index,
                                                   uint64_t* out_length) {
  const char* key = NULL;
  return iree_rt_parameters_entry(parameters, index, &key, out_length);
}
static iree_rt_status_t rt_parameters_add_memory_borrowed(
    iree_rt_parameters_t parameters, const char* key, const void* borrowed, size_t borrowed_size,
    iree_rt_module_release_callback_t borrowed_release, void* borrowed_cookie) {
  return iree_rt_parameters_add_memory(parameters, key, borrowed, borrowed_size,
                                       IREE_RT_PARAMETERS_FLAG_NONE, borrowed_release,
                                       borrowed_cookie);
}
static iree_rt_status_t rt_parameters_add_archive_borrowed(
    iree_rt_parameters_t parameters, const char* format, const void* borrowed,
    size_t borrowed_size, iree_rt_module_release_callback_t borrowed_release,
    void* borrowed_cookie) {
  return iree_rt_parameters_add_archive_memory(parameters, format, borrowed, borrowed_size,
                                               IREE_RT_PARAMETERS_FLAG_NONE, borrowed_release,
                                               borrowed_cookie);
}
%}

// ---- One crossing per scalar call (the Invocation classes' fast path) -------------------------
// The list protocol needs six native calls per call (clear, clear, push, push, call, get), and a
// crossing costs a JVM or Mono far more than the C function behind it. rt_call_scalars does them
// in one. Its handles are raw (an Invocation holds a reference to each for its own lifetime) and
// its arguments and results are (value type, 64-bit pattern) pairs in native memory the
// Invocation owns, so nothing is marshalled or pinned per call. A result that is not a scalar is
// left in |results| with type REF for the caller to fetch. The language .i maps the raw
// parameters (function, arguments, results, arg_types, arg_bits, result_types, result_bits).
%apply iree_rt_status_t RT_RET_LONG { iree_rt_status_t rt_call_scalars };
%inline %{
static iree_rt_status_t rt_call_scalars(void* function, void* arguments, void* results,
                                           const int32_t* arg_types, const int64_t* arg_bits,
                                           size_t arg_count, int32_t* result_types,
                                           int64_t* result_bits, size_t result_capacity,
                                           size_t* out_result_count) {
  iree_rt_value_list_t args = (iree_rt_value_list_t)arguments;
  iree_rt_value_list_t res = (iree_rt_value_list_t)results;
  iree_rt_status_t status = iree_rt_value_list_clear(args);
  if (!status) status = iree_rt_value_list_clear(res);
  for (size_t i = 0; !status && i < arg_count; ++i) {
    int64_t bits = arg_bits[i];
    switch (arg_types[i]) {
      case IREE_RT_VALUE_TYPE_I32: status = iree_rt_value_list_push_i32(args, (int32_t)bits); break;
      case IREE_RT_VALUE_TYPE_I64: status = iree_rt_value_list_push_i64(args, bits); break;
      case IREE_RT_VALUE_TYPE_F32: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof(f));
        status = iree_rt_value_list_push_f32(args, f);
        break;
      }
      case IREE_RT_VALUE_TYPE_F64: {
        double d;
        memcpy(&d, &bits, sizeof(d));
        status = iree_rt_value_list_push_f64(args, d);
        break;
      }
      default: status = iree_rt_value_list_push_buffer_view(args, NULL); break;
    }
  }
  if (!status) status = iree_rt_function_call((iree_rt_function_t)function, args, res);
  size_t count = 0;
  if (!status) status = iree_rt_value_list_size(res, &count);
  for (size_t i = 0; !status && i < count && i < result_capacity; ++i) {
    iree_rt_value_type_t type = IREE_RT_VALUE_TYPE_NONE;
    status = iree_rt_value_list_get_type(res, i, &type);
    if (status) break;
    int64_t bits = 0;
    if (type == IREE_RT_VALUE_TYPE_F32) {
      float f = 0;
      status = iree_rt_value_list_get_f32(res, i, &f);
      uint32_t u;
      memcpy(&u, &f, sizeof(u));
      bits = (int64_t)u;
    } else if (type == IREE_RT_VALUE_TYPE_F64) {
      double d = 0;
      status = iree_rt_value_list_get_f64(res, i, &d);
      memcpy(&bits, &d, sizeof(bits));
    } else if (type != IREE_RT_VALUE_TYPE_REF && type != IREE_RT_VALUE_TYPE_NONE) {
      status = iree_rt_value_list_get_i64(res, i, &bits);
      if (type != IREE_RT_VALUE_TYPE_I64) type = IREE_RT_VALUE_TYPE_I32;
    }
    result_types[i] = (int32_t)type;
    result_bits[i] = bits;
  }
  if (!status) *out_result_count = count;
  return status;
}
%}

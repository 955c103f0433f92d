// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_csharp.i: the C# half of the SWIG interface (namespace IreeRt). Defines the typemaps
// bindings/swig/iree_rt.i asks for, in P/Invoke terms. SWIG output (IreeRtNative.cs,
// IreeRtPInvoke.cs, iree_rt_csharp_wrap.c) is produced by the build and is internal: the public
// API is the hand-written classes next to this file.
//
// Handles cross as SafeHandles (RtHandle): the P/Invoke marshaller adds a reference to the
// SafeHandle for the duration of each call, so Dispose() on another thread cannot free a handle
// in use, and a disposed one throws ObjectDisposedException instead of reaching native code.
// A failed status calls back into C# (rt_cs_throw, registered once) to record the exception,
// which the generated method throws when the native call returns. That callback always runs on
// the managed thread that made the call. Releases of pinned memory can happen on runtime worker
// threads, which Mono must not enter: they are queued here and drained by managed code
// (PinnedMemory.Drain, called by tensor creation and Dispose).
%module(imclassname="IreeRtPInvoke") IreeRtNative

%pragma(csharp) moduleclassmodifiers="internal class"
%pragma(csharp) imclassclassmodifiers="internal class"
%typemap(csclassmodifiers) enum rt_handle_kind "internal enum"
// Every wrapper call goes through IreeRtNative, whose explicit static constructor therefore runs
// before the first P/Invoke (that of IreeRtPInvoke's type initializer included): it loads the
// glue by absolute path (NativeLibraryLoader.cs), so no MONO_PATH or LD_LIBRARY_PATH is needed.
%pragma(csharp) modulecode=%{
  static IreeRtNative() { NativeLibraryLoader.Ensure(); }
%}
%pragma(csharp) imclasscode=%{
  internal delegate void RtThrowCallback(int code, global::System.IntPtr message);
  static readonly RtThrowCallback rtThrow = PendingException.SetFromNative;

  // iree_rt_fence_notify (Fence.WaitAsync, Function.CallAsync): one static delegate, alive as
  // long as the class, is the C callback of every registration; |cookie| is a GCHandle of what
  // to complete. It runs on runtime threads, which Mono attaches when they first call it.
  internal delegate void RtFenceCallback(global::System.IntPtr cookie, int code,
                                         global::System.IntPtr message);
  static readonly RtFenceCallback rtFenceReached = FenceCompletion.OnFence;

  [global::System.Runtime.InteropServices.DllImport("iree_rt_csharp",
                                                   EntryPoint="rt_cs_register_callbacks")]
  static extern void RtRegisterCallbacks(RtThrowCallback throwCallback);

  // The next queued cookie of memory the runtime released, or zero.
  [global::System.Runtime.InteropServices.DllImport("iree_rt_csharp",
                                                   EntryPoint="rt_cs_take_released")]
  internal static extern global::System.IntPtr RtTakeReleased();

  // SWIG gives this class an explicit static constructor, so this initializer runs before any
  // of its members is used.
  static readonly bool rtCallbacksRegistered = RtRegister();

  static bool RtRegister() {
    RtRegisterCallbacks(rtThrow);
    RtRegisterFenceCallback(rtFenceReached);
    return true;
  }

  [global::System.Runtime.InteropServices.DllImport("iree_rt_csharp",
                                                   EntryPoint="rt_cs_register_fence_callback")]
  static extern void RtRegisterFenceCallback(RtFenceCallback callback);

  [global::System.Runtime.InteropServices.DllImport("iree_rt_csharp",
                                                   EntryPoint="rt_cs_fence_notify")]
  static extern void RtFenceNotifyRaw(RtHandle fence, global::System.IntPtr cookie);

  // Registers |cookie| for |fence|; throws (and never calls back) if that fails.
  internal static void RtFenceNotify(RtHandle fence, global::System.IntPtr cookie) {
    RtFenceNotifyRaw(fence, cookie);
    PendingException.ThrowIfAny();
  }
%}

%{
#include <stdint.h>
#include <stdlib.h>
#include "iree_rt.h"

#include <pthread.h>
#include <string.h>

typedef void (SWIGSTDCALL* rt_cs_throw_fn)(int code, const char* message);
static rt_cs_throw_fn rt_cs_throw = NULL;

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL rt_cs_register_callbacks(rt_cs_throw_fn throw_fn) {
  rt_cs_throw = throw_fn;
}

typedef void (SWIGSTDCALL* rt_cs_fence_fn)(void* cookie, int code, const char* message);
static rt_cs_fence_fn rt_cs_fence_reached = NULL;

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL rt_cs_register_fence_callback(rt_cs_fence_fn fn) {
  rt_cs_fence_reached = fn;
}

static void rt_cs_on_fence(void* user_data, iree_rt_status_code_t code, const char* message) {
  rt_cs_fence_reached(user_data, (int)code, message);
}

static void rt_cs_raise(iree_rt_status_t status);

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL rt_cs_fence_notify(void* fence, void* cookie) {
  iree_rt_status_t status = iree_rt_fence_notify((iree_rt_fence_t)fence, rt_cs_on_fence, cookie);
  if (status) rt_cs_raise(status);
}

// Records an IreeRtException for |status| on the calling thread and frees the status.
static void rt_cs_raise(iree_rt_status_t status) {
  rt_cs_throw((int)iree_rt_status_code(status), iree_rt_status_message(status));
  iree_rt_status_free(status);
}

// Cookies (GCHandles of PinnedMemory) of managed memory the runtime no longer uses.
static pthread_mutex_t rt_cs_released_mutex = PTHREAD_MUTEX_INITIALIZER;
static void** rt_cs_released = NULL;
static size_t rt_cs_released_count = 0;
static size_t rt_cs_released_capacity = 0;

// iree_rt_host_release_fn_t for imported managed memory: queues its cookie (any thread).
static void rt_cs_release_host(void* user_data, void* ptr) {
  (void)ptr;
  pthread_mutex_lock(&rt_cs_released_mutex);
  if (rt_cs_released_count == rt_cs_released_capacity) {
    size_t capacity = rt_cs_released_capacity ? 2 * rt_cs_released_capacity : 64;
    void** grown = (void**)realloc(rt_cs_released, capacity * sizeof(void*));
    if (grown) {
      rt_cs_released = grown;
      rt_cs_released_capacity = capacity;
    }
  }
  // Out of memory: the memory stays pinned (never freed early).
  if (rt_cs_released_count < rt_cs_released_capacity) {
    rt_cs_released[rt_cs_released_count++] = user_data;
  }
  pthread_mutex_unlock(&rt_cs_released_mutex);
}

// iree_rt_module_release_callback_t for lent parameter memory: queues its cookie (any thread).
static void rt_cs_release_memory(void* user_data) { rt_cs_release_host(user_data, NULL); }

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void* SWIGSTDCALL rt_cs_take_released(void) {
  pthread_mutex_lock(&rt_cs_released_mutex);
  void* cookie = rt_cs_released_count ? rt_cs_released[--rt_cs_released_count] : NULL;
  pthread_mutex_unlock(&rt_cs_released_mutex);
  return cookie;
}
%}

// ---- Status → IreeRtException -----------------------------------------------------------------
%define RT_CS_STATUS(PATTERN, CTYPE, CSTYPE, CSOUT)
%typemap(ctype) PATTERN #CTYPE
%typemap(imtype) PATTERN #CSTYPE
%typemap(cstype) PATTERN #CSTYPE
%typemap(csout, excode="") PATTERN CSOUT
%typemap(out) PATTERN %{ $result = 0; if ($1) rt_cs_raise($1); %}
%enddef
RT_CS_STATUS(iree_rt_status_t, void, void,
             { $imcall; PendingException.ThrowIfAny(); })
%typemap(out) iree_rt_status_t %{ if ($1) rt_cs_raise($1); %}
RT_CS_STATUS(iree_rt_status_t RT_RET_HANDLE, void*, global::System.IntPtr,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
RT_CS_STATUS(iree_rt_status_t RT_RET_LONG, long long, long,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
RT_CS_STATUS(iree_rt_status_t RT_RET_INT, int, int,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
RT_CS_STATUS(iree_rt_status_t RT_RET_UINT, int, int,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
RT_CS_STATUS(iree_rt_status_t RT_RET_FLOAT, float, float,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
RT_CS_STATUS(iree_rt_status_t RT_RET_DOUBLE, double, double,
             { var r = $imcall; PendingException.ThrowIfAny(); return r; })
// Strings are borrowed from the runtime object; decoded (UTF-8) before the call returns.
%typemap(ctype) iree_rt_status_t RT_RET_STRING "const char*"
%typemap(imtype) iree_rt_status_t RT_RET_STRING "global::System.IntPtr"
%typemap(cstype) iree_rt_status_t RT_RET_STRING "string"
%typemap(csout, excode="") iree_rt_status_t RT_RET_STRING {
    var r = $imcall; PendingException.ThrowIfAny(); return Utf8.FromNative(r); }
%typemap(out) iree_rt_status_t RT_RET_STRING %{ $result = 0; if ($1) rt_cs_raise($1); %}

%define RT_OUT_TYPEMAPS(CTYPE, KIND)
%typemap(in, numinputs=0) CTYPE* (CTYPE temp = 0) %{ $1 = ($1_ltype)&temp; %}
%typemap(argout) CTYPE* %{ if (!result) $result = RT_CS_CAST_##KIND temp$argnum; %}
%enddef
%{
#define RT_CS_CAST_HANDLE (void*)
#define RT_CS_CAST_LONG (long long)
#define RT_CS_CAST_INT (int)
#define RT_CS_CAST_UINT (int)
#define RT_CS_CAST_FLOAT (float)
#define RT_CS_CAST_DOUBLE (double)
#define RT_CS_CAST_STRING (const char*)
%}

// ---- Handles in: the class's SafeHandle (null object: a NULL handle) ---------------------------
%define RT_HANDLE_TYPEMAPS(CTYPE, CLASS)
%typemap(ctype) CTYPE "void*"
%typemap(imtype) CTYPE "RtHandle"
%typemap(cstype) CTYPE "CLASS"
%typemap(csin) CTYPE "NativeObject.H($csinput)"
%typemap(in) CTYPE %{ $1 = (CTYPE)$input; %}
%enddef

// Arrays of handles (Module[], Device[]): every element is held for the call; the count is the
// array's length, passed by the class that calls this.
%define RT_HANDLE_ARRAY_TYPEMAPS(CTYPE, CLASS, NAME)
%typemap(ctype) const CTYPE* NAME "void**"
%typemap(imtype) const CTYPE* NAME "global::System.IntPtr[]"
%typemap(cstype) const CTYPE* NAME "CLASS[]"
%typemap(csin, pre="    var h$csinput = NativeObject.AcquireAll($csinput);",
         post="      NativeObject.ReleaseAll($csinput);") const CTYPE* NAME "h$csinput"
%typemap(in) const CTYPE* NAME %{ $1 = (CTYPE*)$input; %}
%enddef
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_module_t, Module, modules)
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_device_t, Device, devices)
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_parameters_t, Parameters, parameters)

// Shapes: long[] (pinned by the marshaller for the call; the callee copies it).
%typemap(ctype) const int64_t* shape "int64_t*"
%typemap(imtype) const int64_t* shape "long[]"
%typemap(cstype) const int64_t* shape "long[]"
%typemap(csin) const int64_t* shape "$csinput"
%typemap(in) const int64_t* shape %{ $1 = $input; %}

// Host memory: raw pointers the classes pin (fixed / Memory.Pin) around the call.
%define RT_CS_POINTER(PTRTYPE, NAME)
%typemap(ctype) PTRTYPE NAME "void*"
%typemap(imtype) PTRTYPE NAME "global::System.IntPtr"
%typemap(cstype) PTRTYPE NAME "global::System.IntPtr"
%typemap(csin) PTRTYPE NAME "$csinput"
%typemap(in) PTRTYPE NAME %{ $1 = ($1_ltype)$input; %}
%enddef
RT_CS_POINTER(void*, target)
RT_CS_POINTER(const void*, source)
RT_CS_POINTER(void*, ptr)
RT_CS_POINTER(void*, user_data)

// Zero-copy import: the release callback unpins the memory (PinnedMemory cookie in user_data).
%typemap(in, numinputs=0) iree_rt_host_release_fn_t release_fn %{ $1 = rt_cs_release_host; %}
// Lent parameter memory (rt_parameters_add_*_borrowed): the same, with a PinnedMemory cookie.
RT_CS_POINTER(const void*, borrowed)
RT_CS_POINTER(void*, borrowed_cookie)
%typemap(in, numinputs=0) iree_rt_module_release_callback_t borrowed_release %{
  $1 = rt_cs_release_memory;
%}

// Module and parameter bytes, and splat patterns: a byte[] pinned for the call and copied (the
// classes pass the COPY flag).
%define RT_CS_BYTES(NAME)
%typemap(ctype) const void* NAME "void*"
%typemap(imtype) const void* NAME "byte[]"
%typemap(cstype) const void* NAME "byte[]"
%typemap(csin) const void* NAME "$csinput"
%typemap(in) const void* NAME %{ $1 = $input; %}
%enddef
RT_CS_BYTES(data)
RT_CS_BYTES(pattern)
%typemap(in, numinputs=0) iree_rt_module_release_callback_t release_callback %{ $1 = NULL; %}


// ---- Raw arguments of rt_call_scalars (Invocation's one-crossing path; see iree_rt.i) ----------
RT_CS_POINTER(void*, function)
RT_CS_POINTER(void*, arguments)
RT_CS_POINTER(void*, results)
%define RT_CS_ARRAY(CTYPE, NAME)
%typemap(ctype) CTYPE* NAME "CTYPE*"
%typemap(imtype) CTYPE* NAME "global::System.IntPtr"
%typemap(cstype) CTYPE* NAME "global::System.IntPtr"
%typemap(csin) CTYPE* NAME "$csinput"
%typemap(in) CTYPE* NAME %{ $1 = ($1_ltype)$input; %}
%typemap(argout) CTYPE* NAME ""
%enddef
RT_CS_ARRAY(const int32_t, arg_types)
RT_CS_ARRAY(const int64_t, arg_bits)
RT_CS_ARRAY(int32_t, result_types)
RT_CS_ARRAY(int64_t, result_bits)

%include "../swig/iree_rt.i"

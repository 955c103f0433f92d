// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_java.i: the Java half of the SWIG interface (package dev.ireert). Defines the
// typemaps bindings/swig/iree_rt.i asks for, in JNI terms, plus the direct-ByteBuffer ones.
// SWIG output (IreeRtNative.java, IreeRtJni.java, iree_rt_java_wrap.c) is produced by the build
// and is package-private: the public API is the hand-written classes next to this file.
%module(jniclassname="IreeRtJni") IreeRtNative

%pragma(java) moduleclassmodifiers="final class"
%include "enumtypeunsafe.swg"
%javaconst(1);
%typemap(javaclassmodifiers) enum rt_handle_kind "final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}

%{
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "iree_rt.h"

static JavaVM* rt_jvm = NULL;
static jclass rt_exception_class = NULL;
static jmethodID rt_exception_ctor = NULL;
static jclass rt_notifier_class = NULL;       // FenceNotifier
static jmethodID rt_notifier_on_fence = NULL;  // its static onFence(long, int, String)

// Caches the VM (for release callbacks on runtime threads) and IreeRtException's constructor
// once, when NativeLibrary loads this library.
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env = NULL;
  rt_jvm = vm;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  jclass local = (*env)->FindClass(env, "dev/ireert/IreeRtException");
  if (!local) return JNI_ERR;
  rt_exception_ctor = (*env)->GetMethodID(env, local, "<init>", "(ILjava/lang/String;)V");
  rt_exception_class = (jclass)(*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  local = (*env)->FindClass(env, "dev/ireert/FenceNotifier");
  if (!local) return JNI_ERR;
  rt_notifier_on_fence = (*env)->GetStaticMethodID(env, local, "onFence", "(JILjava/lang/String;)V");
  rt_notifier_class = (jclass)(*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return rt_exception_ctor && rt_exception_class && rt_notifier_on_fence && rt_notifier_class
             ? JNI_VERSION_1_8 : JNI_ERR;
}

// Throws IreeRtException(code, message) for |status| and frees it.
static void rt_java_throw(JNIEnv* jenv, iree_rt_status_t status) {
  if (!rt_exception_class) {  // loaded without JNI_OnLoad running (should not happen)
    jclass local = (*jenv)->FindClass(jenv, "dev/ireert/IreeRtException");
    if (!local) { iree_rt_status_free(status); return; }  // NoClassDefFoundError is pending
    rt_exception_ctor = (*jenv)->GetMethodID(jenv, local, "<init>", "(ILjava/lang/String;)V");
    rt_exception_class = (jclass)(*jenv)->NewGlobalRef(jenv, local);
    (*jenv)->DeleteLocalRef(jenv, local);
  }
  jstring message = (*jenv)->NewStringUTF(jenv, iree_rt_status_message(status));
  jint code = (jint)iree_rt_status_code(status);
  iree_rt_status_free(status);
  if (!message) return;  // OutOfMemoryError is pending
  jthrowable ex = (jthrowable)(*jenv)->NewObject(jenv, rt_exception_class, rt_exception_ctor, code,
                                                message);
  if (ex) (*jenv)->Throw(jenv, ex);
}

// Drops the global reference that kept a direct ByteBuffer (and so its memory) reachable while
// the runtime used it. May run on a runtime worker thread.
static void rt_java_release_ref(void* user_data) {
  JNIEnv* env = NULL;
  int attached = 0;
  if ((*rt_jvm)->GetEnv(rt_jvm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) {
    if ((*rt_jvm)->AttachCurrentThreadAsDaemon(rt_jvm, (void**)&env, NULL) != JNI_OK) return;
    attached = 1;
  }
  (*env)->DeleteGlobalRef(env, (jobject)user_data);
  if (attached) (*rt_jvm)->DetachCurrentThread(rt_jvm);
}

// iree_rt_host_release_fn_t for imported direct ByteBuffers.
static void rt_java_release_buffer(void* user_data, void* ptr) {
  (void)ptr;
  rt_java_release_ref(user_data);
}

// ---- iree_rt_fence_notify → FenceNotifier.onFence (Fence.onReached, Function.callAsync) ----
// The callback runs on whichever runtime thread decides the fence. Such a thread is attached to
// the JVM once, as a daemon (so it never keeps the JVM alive), and detached by a thread-local
// destructor when it exits; threads the JVM already knows are used as they are.
static pthread_key_t rt_detach_key;
static pthread_once_t rt_detach_once = PTHREAD_ONCE_INIT;

static void rt_java_detach_thread(void* vm) { (*(JavaVM*)vm)->DetachCurrentThread((JavaVM*)vm); }
static void rt_java_make_detach_key(void) { pthread_key_create(&rt_detach_key, rt_java_detach_thread); }

static JNIEnv* rt_java_thread_env(void) {
  JNIEnv* env = NULL;
  if ((*rt_jvm)->GetEnv(rt_jvm, (void**)&env, JNI_VERSION_1_8) == JNI_OK) return env;
  if ((*rt_jvm)->AttachCurrentThreadAsDaemon(rt_jvm, (void**)&env, NULL) != JNI_OK) return NULL;
  pthread_once(&rt_detach_once, rt_java_make_detach_key);
  pthread_setspecific(rt_detach_key, rt_jvm);
  return env;
}

// iree_rt_fence_callback_t: |user_data| is FenceNotifier's id of the pending completion.
static void rt_java_fence_reached(void* user_data, iree_rt_status_code_t code, const char* message) {
  JNIEnv* env = rt_java_thread_env();
  if (!env) return;  // the JVM is shutting down
  jthrowable pending = (*env)->ExceptionOccurred(env);  // inline on a Java thread: keep it
  if (pending) (*env)->ExceptionClear(env);
  jstring text = (*env)->NewStringUTF(env, message);
  if (!text) (*env)->ExceptionClear(env);  // out of memory: no message rather than no completion
  (*env)->CallStaticVoidMethod(env, rt_notifier_class, rt_notifier_on_fence,
                               (jlong)(intptr_t)user_data, (jint)code, text);
  // onFence catches what it can; whatever still escapes must not stay pending on a thread
  // without Java frames.
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (text) (*env)->DeleteLocalRef(env, text);
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
}

// FenceNotifier.register(fence, id). The callback's class and method were resolved by JNI_OnLoad,
// with this library's class loader: a runtime thread could not find them.
JNIEXPORT void JNICALL Java_dev_ireert_FenceNotifier_register(JNIEnv* jenv, jclass cls, jlong fence,
                                                              jlong id) {
  (void)cls;
  iree_rt_status_t status = iree_rt_fence_notify((iree_rt_fence_t)(intptr_t)fence,
                                                 rt_java_fence_reached, (void*)(intptr_t)id);
  if (status) rt_java_throw(jenv, status);
}

// Checks that |buffer| is a direct ByteBuffer; throws IllegalArgumentException otherwise.
static char* rt_direct_address(JNIEnv* jenv, jobject buffer, jlong* out_capacity) {
  char* address = buffer ? (char*)(*jenv)->GetDirectBufferAddress(jenv, buffer) : NULL;
  jlong capacity = buffer ? (*jenv)->GetDirectBufferCapacity(jenv, buffer) : -1;
  if (!address && capacity != 0) {
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalArgumentException,
                            "a direct ByteBuffer is required");
    return NULL;
  }
  *out_capacity = capacity < 0 ? 0 : capacity;
  return address;
}

// A global reference to the direct ByteBuffer |buffer|, with its address and capacity, for memory
// the runtime uses without a copy; throws IllegalArgumentException for another buffer.
static jobject rt_java_lend(JNIEnv* jenv, jobject buffer, void** out_address, jlong* out_capacity) {
  *out_address = rt_direct_address(jenv, buffer, out_capacity);
  if ((*jenv)->ExceptionCheck(jenv)) return NULL;
  return (*jenv)->NewGlobalRef(jenv, buffer);
}
%}

// ---- Status → IreeRtException -----------------------------------------------------------------
// The call's result is written only on success (argout checks |result|); on failure the pending
// exception makes the returned value irrelevant.
%define RT_JAVA_STATUS(PATTERN, JNITYPE, JTYPE, JAVAOUT)
%typemap(jni) PATTERN #JNITYPE
%typemap(jtype) PATTERN #JTYPE
%typemap(jstype) PATTERN #JTYPE
%typemap(javaout) PATTERN JAVAOUT
%typemap(out) PATTERN %{ if ($1) rt_java_throw(jenv, $1); %}
%enddef
RT_JAVA_STATUS(iree_rt_status_t, void, void, { $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_HANDLE, jlong, long, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_LONG, jlong, long, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_INT, jint, int, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_UINT, jint, int, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_FLOAT, jfloat, float, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_DOUBLE, jdouble, double, { return $jnicall; })
RT_JAVA_STATUS(iree_rt_status_t RT_RET_STRING, jstring, String, { return $jnicall; })

%define RT_OUT_TYPEMAPS(CTYPE, KIND)
%typemap(in, numinputs=0) CTYPE* (CTYPE temp = 0) %{ $1 = ($1_ltype)&temp; %}
RT_OUT_ARGOUT_##KIND(CTYPE)
%enddef
%define RT_OUT_ARGOUT_HANDLE(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jlong)(intptr_t)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_LONG(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jlong)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_INT(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jint)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_UINT(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jint)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_FLOAT(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jfloat)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_DOUBLE(CTYPE)
%typemap(argout) CTYPE* %{ if (!result) $result = (jdouble)temp$argnum; %}
%enddef
%define RT_OUT_ARGOUT_STRING(CTYPE)
%typemap(argout) CTYPE* %{
  if (!result && temp$argnum) $result = (*jenv)->NewStringUTF(jenv, temp$argnum);
%}
%enddef

// ---- Handles in: the class, held (acquire/release) for the duration of the call ---------------
%define RT_HANDLE_TYPEMAPS(CTYPE, CLASS)
%typemap(jni) CTYPE "jlong"
%typemap(jtype) CTYPE "long"
%typemap(jstype) CTYPE "CLASS"
%typemap(javain, pre="    long h$javainput = NativeObject.acquire($javainput);",
         post="      NativeObject.release($javainput);") CTYPE "h$javainput"
%typemap(in) CTYPE %{ $1 = (CTYPE)(intptr_t)$input; %}
%enddef

// Arrays of handles: (Module[]), (Device[]); every element is held for the call.
%define RT_HANDLE_ARRAY_TYPEMAPS(CTYPE, CLASS, NAME, COUNT)
%typemap(jni) (const CTYPE* NAME, size_t COUNT) "jlongArray"
%typemap(jtype) (const CTYPE* NAME, size_t COUNT) "long[]"
%typemap(jstype) (const CTYPE* NAME, size_t COUNT) "CLASS[]"
%typemap(javain, pre="    long[] h$javainput = NativeObject.acquireAll($javainput);",
         post="      NativeObject.releaseAll($javainput);")
    (const CTYPE* NAME, size_t COUNT) "h$javainput"
%typemap(in) (const CTYPE* NAME, size_t COUNT) {
  jsize n = (*jenv)->GetArrayLength(jenv, $input);
  jlong* raw = (*jenv)->GetLongArrayElements(jenv, $input, NULL);
  if (!raw) return $null;
  $1 = (CTYPE*)calloc(n ? (size_t)n : 1, sizeof(CTYPE));
  if ($1) for (jsize i = 0; i < n; ++i) $1[i] = (CTYPE)(intptr_t)raw[i];
  (*jenv)->ReleaseLongArrayElements(jenv, $input, raw, JNI_ABORT);
  if (!$1) {
    SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "handle array");
    return $null;
  }
  $2 = (size_t)n;
}
%typemap(freearg) (const CTYPE* NAME, size_t COUNT) %{ free((void*)$1); %}
%enddef
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_module_t, Module, modules, module_count)
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_device_t, Device, devices, device_count)
RT_HANDLE_ARRAY_TYPEMAPS(iree_rt_parameters_t, Parameters, parameters, parameter_count)

// Shapes: long[] (copied by the callee).
%typemap(jni) (const int64_t* shape, size_t rank) "jlongArray"
%typemap(jtype) (const int64_t* shape, size_t rank) "long[]"
%typemap(jstype) (const int64_t* shape, size_t rank) "long[]"
%typemap(javain) (const int64_t* shape, size_t rank) "$javainput"
%typemap(in) (const int64_t* shape, size_t rank) (jlong dims[16]) {
  jsize n = (*jenv)->GetArrayLength(jenv, $input);
  if (n > 16) {
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalArgumentException, "rank over 16");
    return $null;
  }
  (*jenv)->GetLongArrayRegion(jenv, $input, 0, n, dims);
  $1 = (int64_t*)dims;
  $2 = (size_t)n;
}

// Host memory for read/write: a direct ByteBuffer, used from its address for its whole capacity
// (the Java side passes a slice of exactly the bytes to move).
%define RT_DIRECT_BUFFER(PTRTYPE, NAME)
%typemap(jni) (PTRTYPE NAME, uint64_t length) "jobject"
%typemap(jtype) (PTRTYPE NAME, uint64_t length) "java.nio.ByteBuffer"
%typemap(jstype) (PTRTYPE NAME, uint64_t length) "java.nio.ByteBuffer"
%typemap(javain) (PTRTYPE NAME, uint64_t length) "$javainput"
%typemap(in) (PTRTYPE NAME, uint64_t length) {
  jlong capacity = 0;
  $1 = ($1_ltype)rt_direct_address(jenv, $input, &capacity);
  if ((*jenv)->ExceptionCheck(jenv)) return $null;
  $2 = (uint64_t)capacity;
}
%enddef
RT_DIRECT_BUFFER(void*, target)
RT_DIRECT_BUFFER(const void*, source)

// The multi-argument patterns below, named once.
#define RT_IMPORT_HOST_ARGS (void* ptr, uint64_t size,\
    iree_rt_host_release_fn_t release_fn, void* user_data)
#define RT_LOAD_MEMORY_ARGS (const void* data, size_t size, iree_rt_module_load_flags_t flags,\
    iree_rt_module_release_callback_t release_callback, void* user_data)
#define RT_ADD_MEMORY_ARGS (const void* data, size_t size, iree_rt_parameters_flags_t flags,\
    iree_rt_module_release_callback_t release_callback, void* user_data)
#define RT_BORROWED_ARGS (const void* borrowed, size_t borrowed_size,\
    iree_rt_module_release_callback_t borrowed_release, void* borrowed_cookie)

// Zero-copy import of a direct ByteBuffer: the runtime keeps a global reference to it (so the
// GC keeps its memory) until the last runtime reference to the memory is dropped.
%typemap(jni) RT_IMPORT_HOST_ARGS "jobject"
%typemap(jtype) RT_IMPORT_HOST_ARGS "java.nio.ByteBuffer"
%typemap(jstype) RT_IMPORT_HOST_ARGS "java.nio.ByteBuffer"
%typemap(javain) RT_IMPORT_HOST_ARGS "$javainput"
%typemap(in) RT_IMPORT_HOST_ARGS (jobject gref = NULL) {
  jlong capacity = 0;
  gref = rt_java_lend(jenv, $input, &$1, &capacity);
  if ((*jenv)->ExceptionCheck(jenv)) return $null;
  $2 = (uint64_t)capacity;
  $3 = rt_java_release_buffer;
  $4 = (void*)gref;
}
// On failure the runtime did not take the reference: drop it here.
%typemap(freearg) RT_IMPORT_HOST_ARGS %{
  if (result && gref$argnum) (*jenv)->DeleteGlobalRef(jenv, gref$argnum);
%}

// Parameter bytes lent without a copy (rt_parameters_add_*_borrowed): a direct ByteBuffer, kept
// reachable by a global reference until the runtime calls back.
%typemap(jni) RT_BORROWED_ARGS "jobject"
%typemap(jtype) RT_BORROWED_ARGS "java.nio.ByteBuffer"
%typemap(jstype) RT_BORROWED_ARGS "java.nio.ByteBuffer"
%typemap(javain) RT_BORROWED_ARGS "$javainput"
%typemap(in) RT_BORROWED_ARGS (jobject gref = NULL) {
  jlong capacity = 0;
  void* address = NULL;
  gref = rt_java_lend(jenv, $input, &address, &capacity);
  if ((*jenv)->ExceptionCheck(jenv)) return $null;
  $1 = address;
  $2 = (size_t)capacity;
  $3 = rt_java_release_ref;
  $4 = (void*)gref;
}
%typemap(freearg) RT_BORROWED_ARGS %{
  if (result && gref$argnum) (*jenv)->DeleteGlobalRef(jenv, gref$argnum);
%}

// Module and parameter bytes: a byte[], always copied (the COPY flag).
%define RT_COPIED_BYTES(ARGS, COPY_FLAG)
%typemap(jni) ARGS "jbyteArray"
%typemap(jtype) ARGS "byte[]"
%typemap(jstype) ARGS "byte[]"
%typemap(javain) ARGS "$javainput"
%typemap(in) ARGS {
  if (!$input) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "bytes");
    return $null;
  }
  $1 = (void*)(*jenv)->GetByteArrayElements(jenv, $input, NULL);
  if (!$1) return $null;
  $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
  $3 = COPY_FLAG;
  $4 = NULL;
  $5 = NULL;
}
%typemap(freearg) ARGS %{
  if ($1) (*jenv)->ReleaseByteArrayElements(jenv, $input, (jbyte*)$1, JNI_ABORT);
%}
%enddef
RT_COPIED_BYTES(RT_LOAD_MEMORY_ARGS, IREE_RT_MODULE_LOAD_FLAG_COPY)
RT_COPIED_BYTES(RT_ADD_MEMORY_ARGS, IREE_RT_PARAMETERS_FLAG_COPY)

// A splat's pattern: a byte[] (copied by the callee).
%typemap(jni) (const void* pattern, size_t pattern_length) "jbyteArray"
%typemap(jtype) (const void* pattern, size_t pattern_length) "byte[]"
%typemap(jstype) (const void* pattern, size_t pattern_length) "byte[]"
%typemap(javain) (const void* pattern, size_t pattern_length) "$javainput"
%typemap(in) (const void* pattern, size_t pattern_length) (jbyte bytes[16]) {
  jsize n = $input ? (*jenv)->GetArrayLength(jenv, $input) : 0;
  if (!$input || n > 16) {
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalArgumentException, "a pattern of 1 to 16 bytes");
    return $null;
  }
  (*jenv)->GetByteArrayRegion(jenv, $input, 0, n, bytes);
  $1 = bytes;
  $2 = (size_t)n;
}

// ---- Raw arguments of rt_call_scalars (Invocation's one-crossing path; see iree_rt.i) ----------
%define RT_JAVA_RAW(CTYPE, NAME)
%typemap(jni) CTYPE NAME "jlong"
%typemap(jtype) CTYPE NAME "long"
%typemap(jstype) CTYPE NAME "long"
%typemap(javain) CTYPE NAME "$javainput"
%typemap(in) CTYPE NAME %{ $1 = ($1_ltype)(intptr_t)$input; %}
%typemap(argout) CTYPE NAME ""
%enddef
RT_JAVA_RAW(void*, function)
RT_JAVA_RAW(void*, arguments)
RT_JAVA_RAW(void*, results)
RT_JAVA_RAW(const int32_t*, arg_types)
RT_JAVA_RAW(const int64_t*, arg_bits)
RT_JAVA_RAW(int32_t*, result_types)
RT_JAVA_RAW(int64_t*, result_bits)

// The address of a direct ByteBuffer (the Invocation's argument and result arrays), taken once.
%inline %{
static long long rt_address_of(void* target, uint64_t length) {
  (void)length;
  return (long long)(intptr_t)target;
}
%}

%include "../swig/iree_rt.i"

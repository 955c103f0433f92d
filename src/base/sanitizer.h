// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which sanitizer this build runs under, for code that must behave differently there:
// IREE_RT_ASAN (AddressSanitizer) or IREE_RT_TSAN (ThreadSanitizer) is defined to 1.
// GCC announces sanitizers with predefined macros, Clang through __has_feature.
#ifndef IREE_RT_BASE_SANITIZER_H_
#define IREE_RT_BASE_SANITIZER_H_

#if defined(__SANITIZE_ADDRESS__)
#define IREE_RT_ASAN 1
#elif defined(__SANITIZE_THREAD__)
#define IREE_RT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IREE_RT_ASAN 1
#elif __has_feature(thread_sanitizer)
#define IREE_RT_TSAN 1
#endif
#endif

#endif  // IREE_RT_BASE_SANITIZER_H_

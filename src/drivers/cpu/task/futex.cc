// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/task/futex.h"

#include <algorithm>
#include <climits>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace iree_rt::drivers::cpu {

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "futex words must be plain 32-bit integers");

#if defined(__linux__)

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected) {
  // EAGAIN (value changed) and EINTR are both "re-check", which every caller does anyway.
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void FutexWake(std::atomic<uint32_t>* word, uint32_t count) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE,
          static_cast<int>(std::min<uint32_t>(count, INT_MAX)), nullptr, nullptr, 0);
}

#else  // C++20 atomic waits: portable, though notify_one cannot wake a chosen number.

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected) { word->wait(expected); }

void FutexWake(std::atomic<uint32_t>* word, uint32_t count) {
  if (count == 1) {
    word->notify_one();
  } else {
    word->notify_all();
  }
}

#endif

}  // namespace iree_rt::drivers::cpu

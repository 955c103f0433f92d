// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SpinLock: a one-word lock for critical sections of a few loads and stores that never block.
//
// Taking it is one atomic exchange and releasing it a plain store, where std::mutex costs two
// atomic read-modify-writes and two library calls: it guards objects touched several times per
// program call (fences). A holder that is descheduled makes the others yield, not burn a core.
#ifndef IREE_RT_BASE_SPIN_LOCK_H_
#define IREE_RT_BASE_SPIN_LOCK_H_

#include <atomic>
#include <thread>

#include "base/cpu_relax.h"

namespace iree_rt::base {

class SpinLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      for (int spins = 0; locked_.load(std::memory_order_relaxed); ++spins) {
        if (spins < 64) {
          CpuRelax();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_SPIN_LOCK_H_

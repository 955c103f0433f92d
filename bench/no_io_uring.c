// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// LD_PRELOAD shim for bench/vm_share.sh: makes io_uring_setup fail with EPERM (what a security
// policy that blocks io_uring does), so IREE's runtime takes its POSIX proactor. Valgrind does
// not model io_uring: under it IREE's first io_uring wait never returns.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...) {
  va_list list;
  va_start(list, number);
  long args[6];
  for (int i = 0; i < 6; ++i) args[i] = va_arg(list, long);
  va_end(list);
  if (number == SYS_io_uring_setup) {
    errno = EPERM;
    return -1;
  }
  static long (*real)(long, ...) = 0;
  if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, args[0], args[1], args[2], args[3], args[4], args[5]);
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <new>

#include "base/fault_hook.h"

namespace iree_rt::base {
namespace {

Status ErrnoToStatus(int error, std::string_view action, const std::string& path) {
  StatusCode code = StatusCode::kUnknown;
  switch (error) {
    case ENOENT:
    case ENOTDIR:
      code = StatusCode::kNotFound;
      break;
    case EACCES:
    case EPERM:
      code = StatusCode::kPermissionDenied;
      break;
    case EMFILE:
    case ENFILE:
    case ENOMEM:
      code = StatusCode::kResourceExhausted;
      break;
    case EISDIR:
    case ENODEV:
      code = StatusCode::kInvalidArgument;
      break;
    default:
      break;
  }
  return MakeStatus(code, action, " '", path, "': ", std::strerror(error));
}

// Closes the descriptor on every path out of Open; the mapping outlives it.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

StatusOr<Ref<MappedFile>> MappedFile::Open(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoToStatus(errno, "cannot open", path);
  FdCloser closer(fd);

  struct stat info;
  if (::fstat(fd, &info) != 0) return ErrnoToStatus(errno, "cannot stat", path);
  if (!S_ISREG(info.st_mode)) {
    return InvalidArgumentError("cannot map '", path, "': not a regular file");
  }
  if (info.st_size < 0 ||
      static_cast<uint64_t>(info.st_size) > std::numeric_limits<size_t>::max()) {
    return ResourceExhaustedError("cannot map '", path, "': ", info.st_size,
                                  " bytes do not fit in the address space");
  }
  const size_t size = static_cast<size_t>(info.st_size);
  // mmap rejects length 0, and an empty file needs no mapping.
  if (size == 0) return Ref<MappedFile>::Adopt(new MappedFile(path, nullptr, 0));

  // Copy-on-write rather than read-only: programs import their constants from this memory
  // without copying, and iree-compile 3.13.0 emits in-place dispatches that write into such a
  // constant (tests/e2e stablehlo scatter). A written page becomes a private copy instead of a
  // fault; the file is never modified.
  void* data = AllocationFaultInjected()
                   ? MAP_FAILED
                   : ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) return ErrnoToStatus(errno, "cannot map", path);
  try {
    return Ref<MappedFile>::Adopt(new MappedFile(path, static_cast<const uint8_t*>(data), size));
  } catch (const std::bad_alloc&) {
    ::munmap(data, size);  // LeakSanitizer does not see mappings
    throw;
  }
}

void MappedFile::Prefetch() const {
  if (size_ == 0) return;
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0 && size_ > static_cast<uint64_t>(pages) * page_size / 2) return;
  // Advice only: a failure leaves the pages to be faulted in on first touch, as without it.
  (void)madvise(const_cast<uint8_t*>(data_), size_, MADV_WILLNEED);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace iree_rt::base

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/fd_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace iree_rt::hal::utils {

base::StatusOr<base::Ref<FdFile>> FdFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    const base::StatusCode code = error == ENOENT   ? base::StatusCode::kNotFound
                                  : error == EACCES ? base::StatusCode::kPermissionDenied
                                                    : base::StatusCode::kUnknown;
    return base::MakeStatus(code, base::StrCat("cannot open '", path, "': ", std::strerror(error)));
  }
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return base::InvalidArgumentError("'", path, "' is not a regular file");
  }
  return base::Ref<FdFile>::Adopt(new FdFile(path, fd, static_cast<uint64_t>(info.st_size)));
}

FdFile::~FdFile() { ::close(fd_); }

base::Status FdFile::Read(uint64_t offset, void* target, uint64_t length) {
  if (offset > length_ || length > length_ - offset) {
    return base::OutOfRangeError("read of [", offset, ", +", length, ") past the end of '", path_,
                                 "' (", length_, " bytes)");
  }
  auto* out = static_cast<uint8_t*>(target);
  while (length > 0) {
    const ssize_t n = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return base::MakeStatus(base::StatusCode::kDataLoss,
                              base::StrCat("reading '", path_, "' at ", offset, ": ",
                                           n == 0 ? "unexpected end of file" : std::strerror(errno)));
    }
    out += n;
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
  return base::Status::Ok();
}

base::Status FdFile::Write(uint64_t, const void*, uint64_t) {
  return base::MakeStatus(base::StatusCode::kPermissionDenied, base::StrCat("'", path_, "' is open read-only"));
}

}  // namespace iree_rt::hal::utils

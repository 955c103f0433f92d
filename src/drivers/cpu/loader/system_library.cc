// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/system_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "drivers/cpu/loader/elf_format.h"

namespace iree_rt::drivers::cpu {

namespace {

constexpr size_t kDebugFooterSize = 48;
constexpr char kDebugFooterMagic[8] = {'I', 'R', 'E', 'E', 'D', 'B', 'G', '\0'};

// Strips the optional debug-database footer, returning the library bytes.
base::StatusOr<std::span<const uint8_t>> LibraryBytes(std::span<const uint8_t> data) {
  if (data.size() < kDebugFooterSize) return data;
  const uint8_t* footer = data.data() + data.size() - kDebugFooterSize;
  if (std::memcmp(footer, kDebugFooterMagic, sizeof(kDebugFooterMagic)) != 0) return data;
  const uint64_t offset = elf::ReadAt<uint64_t>(footer, 16);
  const uint64_t size = elf::ReadAt<uint64_t>(footer, 24);
  if (size == 0 || !elf::RangeFits(offset, size, data.size() - kDebugFooterSize)) {
    return base::InvalidArgumentError("system library: debug footer library range (offset ",
                                      elf::Hex{offset}, ", size ", elf::Hex{size},
                                      ") lies outside the data");
  }
  return data.subspan(offset, size);
}

bool WriteAll(int fd, std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes = bytes.subspan(static_cast<size_t>(written));
  }
  return true;
}

base::StatusOr<void*> Open(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    return base::InvalidArgumentError("system library: dlopen failed: ",
                                      error ? error : "unknown error");
  }
  return handle;
}

// The temporary file is unlinked as soon as dlopen returns: the mapping keeps it alive.
base::StatusOr<void*> OpenViaTempFile(std::span<const uint8_t> bytes) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/iree_rt_executable_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    return base::UnavailableError("system library: cannot create a temporary file: ",
                                  std::strerror(errno));
  }
  const bool written = WriteAll(fd, bytes);
  close(fd);
  base::StatusOr<void*> handle =
      written ? Open(path) : base::UnavailableError("system library: writing ", path, " failed");
  unlink(path.c_str());
  return handle;
}

}  // namespace

base::StatusOr<std::unique_ptr<SystemLibrary>> SystemLibrary::Load(std::span<const uint8_t> data) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, LibraryBytes(data));
  void* handle = nullptr;
  const int fd = memfd_create("iree_rt_executable", MFD_CLOEXEC);
  if (fd >= 0) {
    const bool written = WriteAll(fd, bytes);
    base::StatusOr<void*> opened =
        written ? Open("/proc/self/fd/" + std::to_string(fd))
                : base::UnavailableError("system library: writing the memfd failed");
    close(fd);
    if (!opened.ok()) return opened.status();
    handle = *opened;
  } else {
    RT_ASSIGN_OR_RETURN(handle, OpenViaTempFile(bytes));
  }
  return std::unique_ptr<SystemLibrary>(new SystemLibrary(handle));
}

SystemLibrary::~SystemLibrary() { dlclose(handle_); }

void* SystemLibrary::LookupSymbol(std::string_view name) const {
  return dlsym(handle_, std::string(name).c_str());
}

}  // namespace iree_rt::drivers::cpu

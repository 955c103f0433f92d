// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/io_parameters/archive_provider.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "base/aligned_bytes.h"
#include "base/mapped_file.h"
#include "hal/utils/fd_file.h"
#include "hal/utils/memory_file.h"
#include "io/parameter_archive.h"

namespace iree_rt::modules::io_parameters {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;

struct OpenedFile {
  Ref<hal::File> file;
  const uint8_t* host_base = nullptr;
  std::span<const uint8_t> header_bytes;  // what the parser reads (the whole file)
  Ref<base::RefObject> keep_parsing;      // keeps |header_bytes| valid while parsing
};

StatusOr<OpenedFile> OpenOne(const std::string& path, ParameterMode mode) {
  RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> mapping, base::MappedFile::Open(path));
  OpenedFile opened;
  opened.header_bytes = mapping->span();
  opened.keep_parsing = mapping;
  std::span<const uint8_t> bytes = mapping->span();
  switch (mode) {
    case ParameterMode::kMmap: {
      mapping->Prefetch();  // the disk reads overlap the program's start instead of its kernels
      Ref<base::MappedFile> keep = mapping;
      opened.file = base::MakeRef<hal::utils::MemoryFile>(const_cast<uint8_t*>(bytes.data()), bytes.size(),
                                                          false, [keep]() mutable { keep = nullptr; });
      opened.host_base = bytes.data();
      break;
    }
    case ParameterMode::kPreload: {
      RT_ASSIGN_OR_RETURN(Ref<base::AlignedBytes> copy, base::AlignedBytes::Copy(bytes));
      opened.file = base::MakeRef<hal::utils::MemoryFile>(copy->data(), copy->size(), false,
                                                          [copy]() mutable { copy = nullptr; });
      opened.host_base = copy->data();
      opened.header_bytes = copy->span();
      opened.keep_parsing = copy;
      break;
    }
    case ParameterMode::kFile: {
      RT_ASSIGN_OR_RETURN(Ref<hal::utils::FdFile> fd_file, hal::utils::FdFile::Open(path));
      opened.file = std::move(fd_file);
      break;
    }
  }
  return opened;
}

// A file over |bytes| that drops |keep_alive| when it is destroyed.
Ref<hal::File> HostFile(std::span<const uint8_t> bytes, Ref<base::RefObject> keep_alive,
                        bool writable = false) {
  return base::MakeRef<hal::utils::MemoryFile>(const_cast<uint8_t*>(bytes.data()), bytes.size(), writable,
                                               [keep_alive]() mutable { keep_alive = nullptr; });
}

}  // namespace

Ref<ArchiveProvider> ArchiveProvider::Create(std::string scope) {
  return Ref<ArchiveProvider>::Adopt(new ArchiveProvider(std::move(scope)));
}

StatusOr<Ref<ArchiveProvider>> ArchiveProvider::Open(std::string scope,
                                                     std::span<const std::string> paths,
                                                     ParameterMode mode) {
  Ref<ArchiveProvider> provider = Create(std::move(scope));
  for (const std::string& path : paths) RT_RETURN_IF_ERROR(provider->AddFile(path, mode));
  provider->Freeze();
  return provider;
}

Status ArchiveProvider::AddFile(const std::string& path, ParameterMode mode) {
  RT_ASSIGN_OR_RETURN(OpenedFile opened, OpenOne(path, mode));
  RT_ASSIGN_OR_RETURN(std::vector<io::ParameterEntry> entries,
                      io::ParseParameterArchive(opened.header_bytes, path));
  return AddSource(path, std::move(entries), std::move(opened.file), opened.host_base);
}

Status ArchiveProvider::AddArchiveMemory(std::span<const uint8_t> bytes, io::ArchiveFormat format,
                                         Ref<base::RefObject> keep_alive) {
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    name = base::StrCat("memory archive ", ++memory_archives_, " (", io::ArchiveFormatName(format), ")");
  }
  RT_ASSIGN_OR_RETURN(std::vector<io::ParameterEntry> entries,
                      io::ParseParameterArchive(bytes, format, name));
  return AddSource(std::move(name), std::move(entries), HostFile(bytes, std::move(keep_alive)),
                   bytes.data());
}

Status ArchiveProvider::AddMemory(std::string key, std::span<const uint8_t> bytes,
                                  Ref<base::RefObject> keep_alive, bool writable) {
  io::ParameterEntry entry;
  entry.key = std::move(key);
  entry.length = bytes.size();
  entry.stored_length = bytes.size();
  std::vector<io::ParameterEntry> entries;
  entries.push_back(std::move(entry));
  return AddSource("caller memory", std::move(entries), HostFile(bytes, std::move(keep_alive), writable),
                   bytes.data());
}

Status ArchiveProvider::AddSplat(std::string key, std::span<const uint8_t> pattern, uint64_t length) {
  static constexpr char kName[] = "caller splat";
  RT_RETURN_IF_ERROR(io::CheckSplat(key, pattern.size(), length, kName));
  io::ParameterEntry entry;
  entry.key = std::move(key);
  entry.kind = io::ParameterKind::kSplat;
  entry.length = length;
  std::copy(pattern.begin(), pattern.end(), entry.pattern.begin());
  entry.pattern_length = static_cast<uint8_t>(pattern.size());
  std::vector<io::ParameterEntry> entries;
  entries.push_back(std::move(entry));
  return AddSource(kName, std::move(entries), nullptr, nullptr);
}

void ArchiveProvider::Freeze() {
  std::lock_guard<std::mutex> lock(mutex_);
  frozen_ = true;
}

Status ArchiveProvider::AddSource(std::string name, std::vector<io::ParameterEntry> entries,
                                  Ref<hal::File> file, const uint8_t* host_base) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (frozen_) {
    return base::FailedPreconditionError("the parameters of scope '", index_.scope(),
                                         "' are in use by a module and can no longer change (adding ",
                                         name, ")");
  }
  RT_ASSIGN_OR_RETURN(size_t source, index_.AddFile(std::move(name), std::move(entries)));
  if (source != files_.size()) return base::InternalError("parameter source index out of step");
  files_.push_back(std::move(file));
  host_bases_.push_back(host_base);
  return Status::Ok();
}

StatusOr<ParameterProvider::Entry> ArchiveProvider::Lookup(std::string_view key) const {
  RT_ASSIGN_OR_RETURN(const io::ParameterEntry* found, index_.Lookup(key));
  Entry entry;
  entry.length = found->length;
  if (found->kind == io::ParameterKind::kSplat) {
    entry.splat = true;
    std::memcpy(entry.pattern, found->pattern.data(), sizeof(entry.pattern));
    entry.pattern_length = found->pattern_length;
    return entry;
  }
  if (found->file_index >= files_.size()) return base::InternalError("parameter '", key, "' has no file");
  entry.file = files_[found->file_index];
  entry.file_offset = found->offset;
  entry.stored_length = found->stored_length;
  if (const uint8_t* base = host_bases_[found->file_index]) entry.host_data = base + found->offset;
  return entry;
}

StatusOr<std::vector<Ref<ParameterProvider>>> OpenParameterFlags(std::span<const std::string> flags,
                                                                 ParameterMode mode) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> paths;
  for (const std::string& flag : flags) {
    const size_t eq = flag.find('=');
    std::string scope = eq == std::string::npos ? std::string() : flag.substr(0, eq);
    std::string path = eq == std::string::npos ? flag : flag.substr(eq + 1);
    if (path.empty()) return base::InvalidArgumentError("--parameters=", flag, " names no file");
    if (!paths.count(scope)) order.push_back(scope);
    paths[scope].push_back(std::move(path));
  }
  std::vector<Ref<ParameterProvider>> providers;
  for (const std::string& scope : order) {
    auto provider = ArchiveProvider::Open(scope, paths[scope], mode);
    if (!provider.ok()) {
      Status status = provider.status();
      return status.Annotate(base::StrCat("opening the parameters of scope '", scope, "'"));
    }
    providers.push_back(std::move(provider).value());
  }
  return providers;
}

}  // namespace iree_rt::modules::io_parameters

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers of the io tests: the archives make_archives.py wrote, its manifest of what each holds,
// and the check of a parser's entries against that manifest.
#ifndef IREE_RT_TESTS_UNIT_IO_ARCHIVE_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_IO_ARCHIVE_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "io/parameter_entry.h"

namespace iree_rt::io::testing {

// The directory of generated archives, or "" when this build has none (the test then skips).
std::string ArchiveDir();

// The bytes of |name| in ArchiveDir(); fails the test (and returns {}) if unreadable.
std::vector<uint8_t> ReadArchive(const std::string& name);

// Every file name the manifest lists that ends in |extension|.
std::vector<std::string> ManifestFiles(const std::string& extension);

// Checks that |entries| are exactly the manifest's entries of |name| (any order): key, kind,
// offset, lengths, pattern, element type, shape, metadata.
void ExpectMatchesManifest(const std::string& name, const std::vector<ParameterEntry>& entries);

// Little-endian stores into a copy of an archive, for the bad-archive cases.
void PutU32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value);
void PutU64(std::vector<uint8_t>& bytes, size_t offset, uint64_t value);
uint64_t GetU64(const std::vector<uint8_t>& bytes, size_t offset);

}  // namespace iree_rt::io::testing

#define RT_SKIP_WITHOUT_ARCHIVES()                                              \
  if (::iree_rt::io::testing::ArchiveDir().empty()) {                           \
    GTEST_SKIP() << "no generated archives (build/venv with gguf, safetensors)"; \
  }

#endif  // IREE_RT_TESTS_UNIT_IO_ARCHIVE_TEST_UTIL_H_

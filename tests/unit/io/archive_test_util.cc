// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "archive_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>

#include "io/json_reader.h"

namespace iree_rt::io::testing {
namespace {

const JsonValue& Manifest() {
  static const JsonValue* manifest = [] {
    std::vector<uint8_t> bytes = ReadArchive("manifest.json");
    auto parsed = ParseJson(std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                             bytes.size()),
                            "manifest.json");
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    return new JsonValue(parsed.ok() ? std::move(parsed).value() : JsonValue());
  }();
  return *manifest;
}

std::string Hex(const uint8_t* data, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

uint64_t Number(const JsonValue& object, const char* name) {
  uint64_t value = 0;
  const JsonValue* member = object.Find(name);
  EXPECT_TRUE(member && member->AsUint64(value)) << "manifest entry lacks " << name;
  return value;
}

}  // namespace

std::string ArchiveDir() {
#ifdef RT_IO_ARCHIVE_DIR
  return RT_IO_ARCHIVE_DIR;
#else
  return "";
#endif
}

std::vector<uint8_t> ReadArchive(const std::string& name) {
  std::ifstream file(ArchiveDir() + "/" + name, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot read " << name;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

std::vector<std::string> ManifestFiles(const std::string& extension) {
  std::vector<std::string> names;
  for (const auto& [name, value] : Manifest().members) {
    if (name.size() >= extension.size() &&
        name.compare(name.size() - extension.size(), extension.size(), extension) == 0) {
      names.push_back(name);
    }
  }
  return names;
}

void ExpectMatchesManifest(const std::string& name, const std::vector<ParameterEntry>& entries) {
  const JsonValue* expected = Manifest().Find(name);
  ASSERT_NE(expected, nullptr) << name << " is not in the manifest";
  std::map<std::string, const ParameterEntry*> by_key;
  for (const ParameterEntry& entry : entries) by_key[entry.key] = &entry;
  EXPECT_EQ(by_key.size(), entries.size()) << name << ": duplicate keys";
  EXPECT_EQ(entries.size(), expected->items.size()) << name;
  for (const JsonValue& item : expected->items) {
    const std::string& key = item.Find("key")->text;
    SCOPED_TRACE(name + ": " + key);
    auto it = by_key.find(key);
    ASSERT_NE(it, by_key.end()) << "missing";
    const ParameterEntry& entry = *it->second;
    EXPECT_EQ(entry.length, Number(item, "length"));
    if (item.Find("kind")->text == "splat") {
      EXPECT_EQ(entry.kind, ParameterKind::kSplat);
      EXPECT_EQ(Hex(entry.pattern.data(), entry.pattern_length), item.Find("pattern")->text);
    } else {
      EXPECT_EQ(entry.kind, ParameterKind::kData);
      EXPECT_EQ(entry.offset, Number(item, "offset"));
      EXPECT_EQ(entry.stored_length, entry.length);
      EXPECT_NE(entry.alignment, 0u);
      EXPECT_EQ(entry.offset % entry.alignment, 0u);
    }
    if (const JsonValue* metadata = item.Find("metadata")) {
      EXPECT_EQ(Hex(entry.metadata.data(), entry.metadata.size()), metadata->text);
    }
    if (const JsonValue* type = item.Find("type")) {
      EXPECT_EQ(entry.element_type, type->text);
      std::vector<uint64_t> shape;
      for (const JsonValue& dim : item.Find("shape")->items) {
        uint64_t value = 0;
        EXPECT_TRUE(dim.AsUint64(value));
        shape.push_back(value);
      }
      EXPECT_TRUE(entry.has_shape);
      EXPECT_EQ(entry.shape, shape);
    } else {
      EXPECT_TRUE(entry.element_type.empty());
      EXPECT_FALSE(entry.has_shape);
    }
  }
}

void PutU32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes.at(offset + i) = static_cast<uint8_t>(value >> (8 * i));
}
void PutU64(std::vector<uint8_t>& bytes, size_t offset, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes.at(offset + i) = static_cast<uint8_t>(value >> (8 * i));
}
uint64_t GetU64(const std::vector<uint8_t>& bytes, size_t offset) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<uint64_t>(bytes.at(offset + i)) << (8 * i);
  return value;
}

}  // namespace iree_rt::io::testing

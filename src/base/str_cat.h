// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StrCat: concatenates text, numbers and streamable values into a std::string (messages only;
// not hot paths). Output is what `std::ostream <<` gives for each part (integers in decimal,
// floating point as %g with 6 digits, char and [un]signed char as characters, bool as 1/0), and
// the std::hex / std::dec style manipulators apply to the parts after them, as in a stream.
//
// Each part becomes a trivially copyable StrPiece (a tag and the value, nothing formatted) and
// one out-of-line function formats and joins them: a call site costs a few stores and a call.
// The previous header-only ostringstream fold was instantiated per distinct argument list
// (`char[15]` and `char[16]` differ) and was the largest single contributor to the library's size.
#ifndef IREE_RT_BASE_STR_CAT_H_
#define IREE_RT_BASE_STR_CAT_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

namespace iree_rt::base {

class StrPiece {
 public:
  StrPiece(std::string_view text) : kind_(Kind::kText) { text_ = {text.data(), text.size()}; }  // NOLINT
  StrPiece(const std::string& text) : StrPiece(std::string_view(text)) {}    // NOLINT: implicit
  // A null pointer contributes nothing.
  StrPiece(const char* text) : StrPiece(text ? std::string_view(text) : std::string_view()) {}  // NOLINT
  StrPiece(char c) : kind_(Kind::kChar) { char_ = c; }                   // NOLINT: implicit
  StrPiece(signed char c) : StrPiece(static_cast<char>(c)) {}            // NOLINT: implicit
  StrPiece(unsigned char c) : StrPiece(static_cast<char>(c)) {}          // NOLINT: implicit
  StrPiece(bool b) : kind_(Kind::kUnsigned), size_(1) { unsigned_ = b ? 1 : 0; }  // NOLINT: implicit
  // std::hex, std::dec, ...: the parts are then written through one ostream, as they were.
  StrPiece(std::ios_base& (*manipulator)(std::ios_base&)) : kind_(Kind::kManipulator) {  // NOLINT
    manipulator_ = manipulator;
  }
  template <std::signed_integral T>
  StrPiece(T v) : kind_(Kind::kSigned), size_(sizeof(T)) { signed_ = v; }  // NOLINT: implicit
  template <std::unsigned_integral T>
  StrPiece(T v) : kind_(Kind::kUnsigned), size_(sizeof(T)) { unsigned_ = v; }  // NOLINT: implicit
  template <std::floating_point T>
  StrPiece(T v) : kind_(Kind::kDouble) { double_ = static_cast<double>(v); }  // NOLINT: implicit
  // Unscoped enums print as their integer value, as an ostream does.
  template <typename T>
    requires(std::is_enum_v<T> && std::is_convertible_v<T, long long>)
  StrPiece(T v) : StrPiece(static_cast<std::underlying_type_t<T>>(v)) {}  // NOLINT: implicit
  // Anything else with an `operator<<` (pointers, small formatting helpers) is streamed when
  // joined: one small function per such type, none per call site.
  template <typename T>
    requires(!std::is_arithmetic_v<T> && !std::is_enum_v<T> && !std::is_function_v<T> &&
             !std::is_convertible_v<const T&, std::string_view>)
  StrPiece(const T& v) : kind_(Kind::kStreamed) {  // NOLINT: implicit
    streamed_ = {&v, [](std::ostream& os, const void* p) { os << *static_cast<const T*>(p); }};
  }

 private:
  friend std::string StrCatPieces(std::initializer_list<StrPiece> pieces);
  enum class Kind : uint8_t { kText, kChar, kSigned, kUnsigned, kDouble, kStreamed, kManipulator };
  void WriteTo(std::ostream& os) const;
  struct Text {
    const char* data;
    size_t size;
  };
  struct Streamed {
    const void* value;
    void (*write)(std::ostream&, const void*);
  };
  Kind kind_;
  uint8_t size_ = 0;  // of an integer: hex output of a negative one depends on its width
  union {
    Text text_;
    char char_;
    long long signed_;
    unsigned long long unsigned_;
    double double_;
    Streamed streamed_;
    std::ios_base& (*manipulator_)(std::ios_base&);
  };
};

// Formats and joins |pieces| (str_cat.cc).
std::string StrCatPieces(std::initializer_list<StrPiece> pieces);

template <typename... Args>
std::string StrCat(const Args&... args) {
  return StrCatPieces({StrPiece(args)...});
}

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_STR_CAT_H_

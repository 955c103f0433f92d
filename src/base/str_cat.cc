// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/str_cat.h"

#include <charconv>
#include <cstdio>
#include <sstream>

#include "base/status.h"

namespace iree_rt::base {

// The stream path, for parts whose output depends on stream state (manipulators) or that only
// an ostream can format: every part exactly as `os << part` writes it.
void StrPiece::WriteTo(std::ostream& os) const {
  switch (kind_) {
    case Kind::kText: os << std::string_view(text_.data, text_.size); break;
    case Kind::kChar: os << char_; break;
    case Kind::kSigned:
      if (size_ == 2) os << static_cast<short>(signed_);
      else if (size_ == 4) os << static_cast<int>(signed_);
      else os << signed_;
      break;
    case Kind::kUnsigned:
      if (size_ == 1) os << static_cast<unsigned>(unsigned_);  // bool: 1 or 0
      else if (size_ == 2) os << static_cast<unsigned short>(unsigned_);
      else if (size_ == 4) os << static_cast<unsigned>(unsigned_);
      else os << unsigned_;
      break;
    case Kind::kDouble: os << double_; break;
    case Kind::kStreamed: streamed_.write(os, streamed_.value); break;
    case Kind::kManipulator: manipulator_(os); break;
  }
}

std::string StrCatPieces(std::initializer_list<StrPiece> pieces) {
  for (const StrPiece& piece : pieces) {
    if (piece.kind_ == StrPiece::Kind::kStreamed || piece.kind_ == StrPiece::Kind::kManipulator) {
      std::ostringstream stream;
      for (const StrPiece& p : pieces) p.WriteTo(stream);
      return stream.str();
    }
  }
  std::string out;
  char buffer[32];
  for (const StrPiece& piece : pieces) {
    switch (piece.kind_) {
      case StrPiece::Kind::kText:
        out.append(piece.text_.data, piece.text_.size);
        break;
      case StrPiece::Kind::kChar:
        out += piece.char_;
        break;
      case StrPiece::Kind::kSigned:
        out.append(buffer, std::to_chars(buffer, buffer + sizeof(buffer), piece.signed_).ptr);
        break;
      case StrPiece::Kind::kUnsigned:
        out.append(buffer, std::to_chars(buffer, buffer + sizeof(buffer), piece.unsigned_).ptr);
        break;
      case StrPiece::Kind::kDouble:
        // An ostream's default: %g with precision 6 ("inf", "nan", "-nan" as printf writes them).
        out.append(buffer, static_cast<size_t>(std::snprintf(buffer, sizeof(buffer), "%g", piece.double_)));
        break;
      case StrPiece::Kind::kStreamed:
      case StrPiece::Kind::kManipulator:
        break;  // handled above
    }
  }
  return out;
}

Status MakeStatusPieces(StatusCode code, std::initializer_list<StrPiece> pieces) {
  return Status(code, StrCatPieces(pieces));
}

}  // namespace iree_rt::base

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/json_reader.h"

namespace iree_rt::io {
namespace {

class JsonParser {
 public:
  JsonParser(std::string_view text, std::string_view file_name, size_t position = 0)
      : text_(text), file_name_(file_name), position_(position) {}

  base::StatusOr<JsonValue> Parse() {
    JsonValue value;
    RT_RETURN_IF_ERROR(ParseValue(value, 0));
    SkipWhitespace();
    if (position_ != text_.size()) return Error("trailing characters after the value");
    return value;
  }

  base::StatusOr<JsonValue> ParseOne(size_t& end) {
    JsonValue value;
    RT_RETURN_IF_ERROR(ParseValue(value, 0));
    end = position_;
    return value;
  }

 private:
  // Whatever was expected, text that stops short is a truncation: say so.
  base::Status Error(std::string_view problem) const {
    return base::InvalidArgumentError(file_name_, ": bad JSON at byte ", position_, ": ",
                                      AtEnd() ? std::string_view("unexpected end of text") : problem);
  }
  bool AtEnd() const { return position_ >= text_.size(); }
  char Peek() const { return text_[position_]; }
  void SkipWhitespace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      ++position_;
    }
  }
  bool Consume(std::string_view word) {
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    return true;
  }

  // |depth| counts the arrays and objects around this value; the recursion stops at the bound.
  base::Status ParseValue(JsonValue& out, int depth) {
    SkipWhitespace();
    if (AtEnd()) return Error("unexpected end of text");
    switch (Peek()) {
      case '{':
      case '[':
        if (depth >= kMaxJsonDepth) return Error("nested deeper than 64 levels");
        return Peek() == '{' ? ParseObject(out, depth + 1) : ParseArray(out, depth + 1);
      case '"':
        out.type = JsonValue::Type::kString;
        return ParseString(out.text);
      case 't':
      case 'f':
        out.type = JsonValue::Type::kBool;
        out.boolean = Peek() == 't';
        if (!Consume(out.boolean ? "true" : "false")) return Error("unknown literal");
        return base::Status::Ok();
      case 'n':
        out.type = JsonValue::Type::kNull;
        if (!Consume("null")) return Error("unknown literal");
        return base::Status::Ok();
      default:
        return ParseNumber(out);
    }
  }

  base::Status ParseObject(JsonValue& out, int depth) {
    out.type = JsonValue::Type::kObject;
    ++position_;  // '{'
    SkipWhitespace();
    if (Consume("}")) return base::Status::Ok();
    while (true) {
      SkipWhitespace();
      if (AtEnd() || Peek() != '"') return Error("expected a member name");
      std::string key;
      RT_RETURN_IF_ERROR(ParseString(key));
      SkipWhitespace();
      if (!Consume(":")) return Error("expected ':' after a member name");
      JsonValue value;
      RT_RETURN_IF_ERROR(ParseValue(value, depth));
      out.members.push_back(JsonMember{std::move(key), std::move(value)});
      SkipWhitespace();
      if (Consume("}")) return base::Status::Ok();
      if (!Consume(",")) return Error("expected ',' or '}' in an object");
    }
  }

  base::Status ParseArray(JsonValue& out, int depth) {
    out.type = JsonValue::Type::kArray;
    ++position_;  // '['
    SkipWhitespace();
    if (Consume("]")) return base::Status::Ok();
    while (true) {
      JsonValue value;
      RT_RETURN_IF_ERROR(ParseValue(value, depth));
      out.items.push_back(std::move(value));
      SkipWhitespace();
      if (Consume("]")) return base::Status::Ok();
      if (!Consume(",")) return Error("expected ',' or ']' in an array");
    }
  }

  bool ParseHex4(uint32_t& out) {
    if (text_.size() - position_ < 4) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[position_++];
      out <<= 4;
      if (c >= '0' && c <= '9') out |= c - '0';
      else if (c >= 'a' && c <= 'f') out |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') out |= c - 'A' + 10;
      else return false;
    }
    return true;
  }

  static void AppendUtf8(uint32_t code_point, std::string& out) {
    if (code_point < 0x80) {
      out += static_cast<char>(code_point);
    } else if (code_point < 0x800) {
      out += static_cast<char>(0xC0 | (code_point >> 6));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else if (code_point < 0x10000) {
      out += static_cast<char>(0xE0 | (code_point >> 12));
      out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code_point >> 18));
      out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code_point & 0x3F));
    }
  }

  base::Status ParseString(std::string& out) {
    ++position_;  // '"'
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      const char c = text_[position_++];
      if (c == '"') return base::Status::Ok();
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (AtEnd()) return Error("unterminated escape");
      const char e = text_[position_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t unit = 0;
          if (!ParseHex4(unit)) return Error("bad \\u escape");
          if (unit >= 0xDC00 && unit <= 0xDFFF) return Error("unpaired low surrogate");
          if (unit >= 0xD800 && unit <= 0xDBFF) {
            uint32_t low = 0;
            if (!Consume("\\u") || !ParseHex4(low) || low < 0xDC00 || low > 0xDFFF) {
              return Error("unpaired high surrogate");
            }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(unit, out);
          break;
        }
        default:
          return Error("unknown escape");
      }
    }
  }

  base::Status ParseNumber(JsonValue& out) {
    const size_t start = position_;
    auto digits = [&] {
      const size_t from = position_;
      while (!AtEnd() && Peek() >= '0' && Peek() <= '9') ++position_;
      return position_ - from;
    };
    Consume("-");
    if (Consume("0")) {
      if (!AtEnd() && Peek() >= '0' && Peek() <= '9') return Error("leading zero in a number");
    } else if (digits() == 0) {
      return Error("expected a value");
    }
    if (Consume(".") && digits() == 0) return Error("expected digits after '.'");
    if (Consume("e") || Consume("E")) {
      if (!Consume("+")) Consume("-");
      if (digits() == 0) return Error("expected exponent digits");
    }
    out.type = JsonValue::Type::kNumber;
    out.text.assign(text_.substr(start, position_ - start));
    return base::Status::Ok();
  }

  std::string_view text_;
  std::string_view file_name_;
  size_t position_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

bool JsonValue::AsUint64(uint64_t& out) const {
  if (type != Type::kNumber || text.empty()) return false;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, static_cast<uint64_t>(c - '0'), &value)) {
      return false;
    }
  }
  out = value;
  return true;
}

base::StatusOr<JsonValue> ParseJson(std::string_view text, std::string_view file_name) {
  return JsonParser(text, file_name).Parse();
}

base::StatusOr<JsonValue> ParseJsonValueAt(std::string_view text, std::string_view file_name,
                                           size_t& position) {
  if (position > text.size()) position = text.size();
  return JsonParser(text, file_name, position).ParseOne(position);
}

}  // namespace iree_rt::io

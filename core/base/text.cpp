// Text from outside made safe: invalid UTF-8 escaped for storage and JSON, control characters for a terminal.
#include "kope/base/text.h"

#include <cstdint>
#include <mutex>

#include <nlohmann/json.hpp>

namespace kope {

namespace {
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
}  // namespace

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t b = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > b) out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if the byte there does not start one.
std::size_t valid_sequence_at(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;  // no surrogates
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;  // nothing above U+10FFFF
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = valid_sequence_at(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() + 16);
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = valid_sequence_at(s, i);
    if (n > 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
    ++i;
  }
  return out;
}

void escape_invalid_utf8_in(nlohmann::json& j) {
  // Iterative, so a deeply nested value cannot exhaust the stack.
  std::vector<nlohmann::json*> todo{&j};
  while (!todo.empty()) {
    nlohmann::json* v = todo.back();
    todo.pop_back();
    if (v->is_string()) {
      auto& s = v->get_ref<std::string&>();
      if (!is_valid_utf8(s)) s = escape_invalid_utf8(s);
    } else if (v->is_array()) {
      for (auto& e : *v) todo.push_back(&e);
    } else if (v->is_object()) {
      bool bad_key = false;
      for (auto it = v->begin(); it != v->end(); ++it) bad_key = bad_key || !is_valid_utf8(it.key());
      if (bad_key) {
        nlohmann::json fixed = nlohmann::json::object();
        for (auto it = v->begin(); it != v->end(); ++it) fixed[escape_invalid_utf8(it.key())] = std::move(it.value());
        *v = std::move(fixed);
      }
      for (auto& e : v->items()) todo.push_back(&e.value());
    }
  }
}

std::string dump_json(const nlohmann::json& j, int indent) {
  try {
    return j.dump(indent);
  } catch (const nlohmann::json::type_error&) {
    nlohmann::json copy = j;
    escape_invalid_utf8_in(copy);
    return copy.dump(indent);
  }
}

namespace {

// The code point of the valid sequence of n bytes at s[i].
uint32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  if (n == 1) return b(0);
  uint32_t cp = b(0) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(k) & 0x3F);
  return cp;
}

bool terminal_unsafe(uint32_t cp) {
  return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

bool is_terminal_safe(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = valid_sequence_at(s, i);
    if (n == 0 || terminal_unsafe(code_point(s, i, n))) return false;
    i += n;
  }
  return true;
}

std::string escape_terminal(std::string_view s) {
  if (is_terminal_safe(s)) return std::string(s);
  static const char hex[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() + 32);
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = valid_sequence_at(s, i);
    if (n == 0) {
      const unsigned char c = static_cast<unsigned char>(s[i++]);
      out += "\\x";
      out += upper[c >> 4];
      out += upper[c & 15];
      continue;
    }
    const uint32_t cp = code_point(s, i, n);
    if (terminal_unsafe(cp)) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

class TerminalSafeStream::Buf : public std::streambuf {
 public:
  explicit Buf(std::ostream& target) : target_(target) {}
  ~Buf() override { drain(true); }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.append(s, static_cast<std::size_t>(n));
    if (pending_.size() >= 8192 || std::string_view(s, static_cast<std::size_t>(n)).find('\n') != std::string_view::npos)
      write_out(false);
    return n;
  }
  int sync() override {
    drain(false);
    return target_ ? 0 : -1;
  }

 private:
  void drain(bool all) {
    std::lock_guard<std::mutex> lock(mu_);
    write_out(all);
    target_.flush();
  }
  // Writes what is pending, keeping back the start of a UTF-8 sequence cut by the buffer's end unless `all`.
  void write_out(bool all) {
    std::size_t keep = 0;
    if (!all) {
      for (std::size_t k = 1; k <= 3 && k <= pending_.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(pending_[pending_.size() - k]);
        if ((c & 0xC0) != 0x80) {  // the last lead byte: keep it and its tail if the sequence is incomplete
          const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
          if (need > k) keep = k;
          break;
        }
      }
    }
    const std::string_view ready(pending_.data(), pending_.size() - keep);
    if (!ready.empty()) target_ << escape_terminal(ready);
    pending_.erase(0, pending_.size() - keep);
  }

  std::ostream& target_;
  std::mutex mu_;
  std::string pending_;
};

TerminalSafeStream::TerminalSafeStream(std::ostream& target)
    : std::ostream(nullptr), buf_(std::make_unique<Buf>(target)) {
  rdbuf(buf_.get());
}

TerminalSafeStream::~TerminalSafeStream() {
  rdbuf(nullptr);
  buf_.reset();
}

}  // namespace kope

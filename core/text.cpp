#include "kope/text.h"

#include <nlohmann/json.hpp>

namespace kope {

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

}  // namespace kope

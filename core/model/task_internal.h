// What task.cpp (which checks a task's dimension expressions) and resolve_case.cpp (which evaluates them) share.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

namespace kope::task_internal {

// A non-negative decimal literal that fits in int64, or nullopt.
inline std::optional<int64_t> parse_count(const std::string& term) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(term.data(), term.data() + term.size(), v);
  if (ec != std::errc() || end != term.data() + term.size() || v < 0) return std::nullopt;
  return v;
}

}  // namespace kope::task_internal

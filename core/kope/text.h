// Text that came from outside (a kernel's output, a compiler's log, a file name) made safe to store and print.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace kope {

// Valid UTF-8 passes through unchanged; each byte that is not part of a valid UTF-8 sequence (a stray
// continuation byte, a truncated or overlong sequence, a surrogate, a code point above U+10FFFF, 0xC0, 0xC1,
// 0xF5..0xFF) becomes the four characters `\xNN` (upper-case hex).
std::string escape_invalid_utf8(std::string_view bytes);

bool is_valid_utf8(std::string_view bytes);

// Every string (and object key) in `j` with invalid UTF-8 escaped as above, in place.
void escape_invalid_utf8_in(nlohmann::json& j);

// j.dump(indent) that never throws for invalid UTF-8: such strings are escaped as above first. The last line of
// defence: text from outside is escaped where it enters, so the slow path should never run.
std::string dump_json(const nlohmann::json& j, int indent = -1);

}  // namespace kope

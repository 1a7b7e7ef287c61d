// Text that came from outside (a kernel's output, a compiler's log, a file name) made safe to store and print.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kope {

// `s` without the white space (space, \t, \n, \v, \f, \r) at either end.
std::string trim(std::string_view s);

// The words of `s`, split at runs of white space.
std::vector<std::string> split_words(std::string_view s);

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

// Text made safe to show on a terminal: every control character but '\n' and '\t' (C0, CR, ESC, DEL and the C1
// range U+0080..U+009F) and every bidirectional embedding, override or isolate (U+202A..U+202E,
// U+2066..U+2069) becomes the six characters `\uXXXX`, which is also a valid JSON escape of the same character,
// so JSON stays JSON; invalid UTF-8 bytes become `\xNN` as above. Nothing else changes. No escape sequence, title
// change, screen clear or carriage-return overwrite survives it.
std::string escape_terminal(std::string_view bytes);
bool is_terminal_safe(std::string_view bytes);

// An ostream that passes everything written to it on to `target` through escape_terminal: the output boundary of
// the CLI, so no text from a kernel, a compiler, a model, a task file or an import reaches a terminal raw,
// whichever command prints it. Buffers up to a newline, a flush or 8 KiB (never splitting a UTF-8 sequence);
// flushes on destruction. Safe to write from several threads.
class TerminalSafeStream : public std::ostream {
 public:
  explicit TerminalSafeStream(std::ostream& target);
  ~TerminalSafeStream() override;
  TerminalSafeStream(const TerminalSafeStream&) = delete;
  TerminalSafeStream& operator=(const TerminalSafeStream&) = delete;

 private:
  class Buf;
  std::unique_ptr<Buf> buf_;
};

}  // namespace kope

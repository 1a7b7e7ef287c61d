// Server-sent events: a parser fed bytes as they arrive, split at any byte, yielding whole events.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace kope::llm {

struct SseEvent {
  std::string event;  // the `event:` field, "" when the server sent none
  std::string data;   // the `data:` lines joined with '\n'
};

// Follows the WHATWG event-stream rules: lines end with \n, \r\n or \r (a \r at the end of one read may be
// followed by \n in the next); lines starting with ':' are comments (keep-alives); a blank line dispatches the
// event; "field:value" drops one space after the colon; unknown fields are ignored.
class SseParser {
 public:
  using Sink = std::function<void(const SseEvent&)>;
  explicit SseParser(Sink sink) : sink_(std::move(sink)) {}

  void feed(std::string_view bytes);
  // The stream ended: an event without its closing blank line is dispatched, as browsers do not; servers
  // that end with "data: [DONE]\n" and no blank line still count.
  void finish();

  int comments() const { return comments_; }

 private:
  void line(std::string_view l);
  void dispatch();

  Sink sink_;
  std::string buf_;
  bool last_was_cr_ = false;
  std::string event_, data_;
  bool has_data_ = false;
  int comments_ = 0;
};

}  // namespace kope::llm

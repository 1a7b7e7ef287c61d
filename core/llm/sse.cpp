#include "kope/llm/sse.h"

namespace kope::llm {

void SseParser::feed(std::string_view bytes) {
  for (char c : bytes) {
    if (last_was_cr_) {
      last_was_cr_ = false;
      if (c == '\n') continue;  // the \n of a \r\n split across reads
    }
    if (c == '\r' || c == '\n') {
      last_was_cr_ = c == '\r';
      line(buf_);
      buf_.clear();
    } else {
      buf_.push_back(c);
    }
  }
}

void SseParser::finish() {
  if (!buf_.empty()) {
    line(buf_);
    buf_.clear();
  }
  if (has_data_) dispatch();
}

void SseParser::line(std::string_view l) {
  if (l.empty()) {
    if (has_data_) dispatch();
    event_.clear();
    return;
  }
  if (l.front() == ':') {
    ++comments_;
    return;
  }
  std::string_view field = l, value;
  if (auto colon = l.find(':'); colon != std::string_view::npos) {
    field = l.substr(0, colon);
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "event") {
    event_ = value;
  } else if (field == "data") {
    if (has_data_) data_.push_back('\n');
    data_.append(value);
    has_data_ = true;
  }
}

void SseParser::dispatch() {
  SseEvent e{event_, data_};
  event_.clear();
  data_.clear();
  has_data_ = false;
  sink_(e);
}

}  // namespace kope::llm

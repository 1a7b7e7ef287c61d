// A scripted HTTP/1.1 server on 127.0.0.1 for the LLM client's tests: each connection gets the next response of
// the script (status, headers, body pieces written with delays, optionally dropped before the end), or what a
// responder makes of the request, and every request is recorded. Real sockets, a thread per connection, so
// requests in flight at once (`kope run --jobs N`) are served at once and counted.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kope::test {

struct ScriptedResponse {
  struct Piece {
    std::string bytes;
    int delay_ms = 0;  // before this piece is written
  };
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<Piece> body;
  bool chunked = true;  // Transfer-Encoding: chunked; else Content-Length (or read-to-close when dropping)
  bool drop = false;    // close the connection after the pieces, without ending the response
};

struct RecordedRequest {
  std::string method, path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::chrono::steady_clock::time_point at;
};

class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<ScriptedResponse> script = {});
  ~ScriptedServer();
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;

  void add(ScriptedResponse r);
  // Answers every request the script has no response left for (the script comes first).
  void set_responder(std::function<ScriptedResponse(const RecordedRequest&)> f);
  int max_in_flight() const { return max_in_flight_.load(); }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<RecordedRequest> requests() const;

 private:
  void serve();
  void handle(int fd);

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<ScriptedResponse> script_;
  std::size_t next_ = 0;
  std::vector<RecordedRequest> requests_;
  std::function<ScriptedResponse(const RecordedRequest&)> responder_;
  std::atomic<int> in_flight_{0}, max_in_flight_{0};
  std::vector<std::thread> connections_;
  std::thread thread_;
};

// An SSE body split into the given pieces, each written `delay_ms` after the previous.
ScriptedResponse sse_response(const std::vector<std::string>& pieces, int delay_ms = 5);
// The whole text cut at the given byte offsets (ascending).
std::vector<std::string> cut_at(const std::string& text, const std::vector<std::size_t>& offsets);
// A JSON error response.
ScriptedResponse error_response(int status, const std::string& json_body,
                                std::vector<std::pair<std::string, std::string>> headers = {});

// Stream texts: an OpenAI-compatible reply whose answer is `answer` (in `parts` content deltas), optional
// reasoning, and a usage chunk when `prompt_tokens` >= 0; an Anthropic reply likewise.
std::string openai_stream(const std::vector<std::string>& answer_parts, const std::string& reasoning = "",
                          int prompt_tokens = 11, int completion_tokens = 7);
std::string anthropic_stream(const std::vector<std::string>& answer_parts, const std::string& thinking = "",
                             int input_tokens = 13, int output_tokens = 9);

}  // namespace kope::test

#include "scripted_llm_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>


namespace kope::test {

using nlohmann::json;

ScriptedServer::ScriptedServer(std::vector<ScriptedResponse> script) : script_(std::move(script)) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket failed");
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(listen_fd_, 16) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

ScriptedServer::~ScriptedServer() {
  stop_ = true;
  thread_.join();
  for (auto& t : connections_) t.join();
  close(listen_fd_);
}

void ScriptedServer::add(ScriptedResponse r) {
  std::lock_guard<std::mutex> g(mu_);
  script_.push_back(std::move(r));
}

void ScriptedServer::set_responder(std::function<ScriptedResponse(const RecordedRequest&)> f) {
  std::lock_guard<std::mutex> g(mu_);
  responder_ = std::move(f);
}

std::vector<RecordedRequest> ScriptedServer::requests() const {
  std::lock_guard<std::mutex> g(mu_);
  return requests_;
}

void ScriptedServer::serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connections_.emplace_back([this, fd] {
      const int now = ++in_flight_;
      for (int m = max_in_flight_.load(); now > m && !max_in_flight_.compare_exchange_weak(m, now);) {
      }
      handle(fd);
      close(fd);
      --in_flight_;
    });
  }
}

namespace {

bool send_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 529: return "Overloaded";
    default: return "Status";
  }
}

}  // namespace

void ScriptedServer::handle(int fd) {
  RecordedRequest req;
  std::string buf;
  char tmp[4096];
  std::size_t head_end = std::string::npos;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (stop_ || std::chrono::steady_clock::now() > deadline) return;
    if (poll(&p, 1, 50) <= 0) continue;
    ssize_t n = recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return;
    buf.append(tmp, static_cast<std::size_t>(n));
  }
  std::string head = buf.substr(0, head_end);
  std::size_t line_end = head.find("\r\n");
  std::string first = head.substr(0, line_end);
  auto sp1 = first.find(' '), sp2 = first.rfind(' ');
  req.method = first.substr(0, sp1);
  req.path = first.substr(sp1 + 1, sp2 - sp1 - 1);
  std::size_t pos = line_end + 2;
  while (pos < head.size()) {
    std::size_t e = head.find("\r\n", pos);
    if (e == std::string::npos) e = head.size();
    std::string l = head.substr(pos, e - pos);
    if (auto c = l.find(':'); c != std::string::npos) {
      std::string k = l.substr(0, c), v = l.substr(c + 1);
      for (auto& ch : k) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      while (!v.empty() && v.front() == ' ') v.erase(0, 1);
      req.headers[k] = v;
    }
    pos = e + 2;
  }
  std::size_t want = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
  req.body = buf.substr(head_end + 4);
  while (req.body.size() < want) {
    pollfd p{fd, POLLIN, 0};
    if (stop_ || std::chrono::steady_clock::now() > deadline) return;
    if (poll(&p, 1, 50) <= 0) continue;
    ssize_t n = recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return;
    req.body.append(tmp, static_cast<std::size_t>(n));
  }
  req.at = std::chrono::steady_clock::now();
  ScriptedResponse r;
  {
    std::lock_guard<std::mutex> g(mu_);
    requests_.push_back(req);
    if (next_ < script_.size()) r = script_[next_++];
    else if (responder_) r = responder_(req);
    else r = error_response(500, R"({"error":{"message":"the test script has no more responses","type":"server_error"}})");
  }
  std::string h = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\nConnection: close\r\n";
  for (const auto& [k, v] : r.headers) h += k + ": " + v + "\r\n";
  if (r.chunked) {
    h += "Transfer-Encoding: chunked\r\n";
  } else if (!r.drop) {
    std::size_t total = 0;
    for (const auto& p : r.body) total += p.bytes.size();
    h += "Content-Length: " + std::to_string(total) + "\r\n";
  }
  h += "\r\n";
  if (!send_all(fd, h)) return;
  for (const auto& p : r.body) {
    for (int waited = 0; waited < p.delay_ms; waited += 10) {
      if (stop_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10, p.delay_ms - waited)));
    }
    if (p.bytes.empty()) continue;
    std::string out = p.bytes;
    if (r.chunked) {
      char size[32];
      std::snprintf(size, sizeof size, "%zx\r\n", p.bytes.size());
      out = size + p.bytes + "\r\n";
    }
    if (!send_all(fd, out)) return;
  }
  if (r.drop) {
    linger lg{1, 0};  // a reset, as a dying proxy sends
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    return;
  }
  if (r.chunked) send_all(fd, "0\r\n\r\n");
  shutdown(fd, SHUT_WR);
  // Let the client read everything before the socket closes.
  pollfd p{fd, POLLIN, 0};
  poll(&p, 1, 200);
}

ScriptedResponse sse_response(const std::vector<std::string>& pieces, int delay_ms) {
  ScriptedResponse r;
  r.headers = {{"Content-Type", "text/event-stream"}};
  for (const auto& p : pieces) r.body.push_back({p, delay_ms});
  return r;
}

std::vector<std::string> cut_at(const std::string& text, const std::vector<std::size_t>& offsets) {
  std::vector<std::string> out;
  std::size_t prev = 0;
  for (std::size_t o : offsets) {
    if (o <= prev || o >= text.size()) continue;
    out.push_back(text.substr(prev, o - prev));
    prev = o;
  }
  out.push_back(text.substr(prev));
  return out;
}

ScriptedResponse error_response(int status, const std::string& body,
                                std::vector<std::pair<std::string, std::string>> headers) {
  ScriptedResponse r;
  r.status = status;
  r.chunked = false;
  r.headers = std::move(headers);
  r.headers.push_back({"Content-Type", "application/json"});
  r.body.push_back({body, 0});
  return r;
}

std::string openai_stream(const std::vector<std::string>& parts, const std::string& reasoning, int pt, int ct) {
  std::string s;
  auto chunk = [&](const json& delta, const json& finish) {
    json j = {{"id", "c1"}, {"object", "chat.completion.chunk"}, {"model", "m"},
              {"choices", json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
    s += "data: " + j.dump() + "\n\n";
  };
  chunk({{"role", "assistant"}, {"content", ""}}, nullptr);
  if (!reasoning.empty()) chunk({{"reasoning_content", reasoning}}, nullptr);
  for (const auto& p : parts) chunk({{"content", p}}, nullptr);
  chunk(json::object(), "stop");
  if (pt >= 0)
    s += "data: " + json{{"id", "c1"}, {"choices", json::array()},
                         {"usage", {{"prompt_tokens", pt}, {"completion_tokens", ct}, {"total_tokens", pt + ct}}}}.dump() +
         "\n\n";
  s += "data: [DONE]\n\n";
  return s;
}

std::string anthropic_stream(const std::vector<std::string>& parts, const std::string& thinking, int in, int outt) {
  std::string s;
  auto ev = [&](const std::string& name, const json& j) { s += "event: " + name + "\ndata: " + j.dump() + "\n\n"; };
  ev("message_start", {{"type", "message_start"},
                       {"message", {{"id", "msg_1"}, {"type", "message"}, {"role", "assistant"}, {"content", json::array()},
                                    {"model", "claude"}, {"usage", {{"input_tokens", in}, {"output_tokens", 1}}}}}});
  int idx = 0;
  if (!thinking.empty()) {
    ev("content_block_start", {{"type", "content_block_start"}, {"index", idx}, {"content_block", {{"type", "thinking"}, {"thinking", ""}}}});
    ev("content_block_delta", {{"type", "content_block_delta"}, {"index", idx}, {"delta", {{"type", "thinking_delta"}, {"thinking", thinking}}}});
    ev("content_block_delta", {{"type", "content_block_delta"}, {"index", idx}, {"delta", {{"type", "signature_delta"}, {"signature", "abc"}}}});
    ev("content_block_stop", {{"type", "content_block_stop"}, {"index", idx}});
    ++idx;
  }
  ev("content_block_start", {{"type", "content_block_start"}, {"index", idx}, {"content_block", {{"type", "text"}, {"text", ""}}}});
  s += "event: ping\ndata: {\"type\": \"ping\"}\n\n";
  for (const auto& p : parts)
    ev("content_block_delta", {{"type", "content_block_delta"}, {"index", idx}, {"delta", {{"type", "text_delta"}, {"text", p}}}});
  ev("content_block_stop", {{"type", "content_block_stop"}, {"index", idx}});
  ev("message_delta", {{"type", "message_delta"}, {"delta", {{"stop_reason", "end_turn"}, {"stop_sequence", nullptr}}},
                       {"usage", {{"output_tokens", outt}}}});
  ev("message_stop", {{"type", "message_stop"}});
  return s;
}

}  // namespace kope::test

// The HTTP side of the LLM client: one curl easy handle per request, driven through a multi handle so that a
// cancel flag is seen within 100 ms; retries with exponential backoff and full jitter.
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "kope/llm/client.h"

namespace kope::llm {

namespace {

using Clock = std::chrono::steady_clock;

bool cancelled(const std::atomic<bool>* c) { return c && c->load(std::memory_order_relaxed); }

struct Transfer {
  Transfer(StreamDecoder& d, const std::atomic<bool>* c, const Client::DeltaFn& fn, int try_no)
      : dec(d), parser([this](const SseEvent& e) { on_event(e); }), cancel(c), on_delta(fn), try_index(try_no) {}

  // New text of either kind, or new usage figures, reach the caller's delta function.
  void on_event(const SseEvent& e) {
    const std::size_t a = dec.answer.size(), r = dec.reasoning.size();
    const Usage u = dec.usage;
    ++events;
    dec.on_event(e);
    const bool usage_changed = dec.usage.prompt_tokens != u.prompt_tokens ||
                               dec.usage.completion_tokens != u.completion_tokens || dec.usage.from_server != u.from_server;
    if (on_delta && (dec.answer.size() != a || dec.reasoning.size() != r || usage_changed))
      on_delta(Delta{std::string_view(dec.answer).substr(a), std::string_view(dec.reasoning).substr(r), try_index,
                     dec.usage});
  }

  StreamDecoder& dec;
  SseParser parser;
  const std::atomic<bool>* cancel;
  const Client::DeltaFn& on_delta;
  int try_index = 0;
  CURL* handle = nullptr;
  long status = 0;
  std::string error_body;
  std::string raw;  // the start of a 200 body, in case it is one JSON document rather than a stream
  int events = 0;
  std::optional<double> retry_after;
  bool aborted = false;
};

size_t on_write(char* p, size_t size, size_t n, void* ud) {
  auto* t = static_cast<Transfer*>(ud);
  const size_t len = size * n;
  if (t->status == 0) curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &t->status);
  if (t->status == 200) {
    if (t->events == 0 && t->raw.size() < (std::size_t{8} << 20)) t->raw.append(p, len);
    t->parser.feed(std::string_view(p, len));
  } else if (t->error_body.size() < 65536) {
    t->error_body.append(p, std::min(len, 65536 - t->error_body.size()));
  }
  return len;
}

size_t on_header(char* p, size_t size, size_t n, void* ud) {
  auto* t = static_cast<Transfer*>(ud);
  std::string_view line(p, size * n);
  if (line.rfind("HTTP/", 0) == 0) t->retry_after.reset();  // a new response (after a 100 Continue, say)
  constexpr std::string_view name = "retry-after:";
  if (line.size() > name.size()) {
    bool match = true;
    for (std::size_t i = 0; i < name.size() && match; ++i)
      match = std::tolower(static_cast<unsigned char>(line[i])) == name[i];
    if (match) t->retry_after = parse_retry_after(line.substr(name.size()));
  }
  return size * n;
}

int on_progress(void* ud, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(ud);
  if (cancelled(t->cancel)) {
    t->aborted = true;
    return 1;
  }
  return 0;
}

struct Outcome {
  CURLcode code = CURLE_OK;
  std::string curl_error;
};

// One HTTP exchange. The caller owns the decoder and reads the transfer's status and bodies.
Outcome perform(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                const Profile& p, Transfer& t) {
  CURL* h = curl_easy_init();
  if (!h) throw LlmError(ErrorKind::Network, 0, "LLM request: curl_easy_init failed");
  t.handle = h;
  char errbuf[CURL_ERROR_SIZE] = {};
  curl_slist* hs = nullptr;
  for (const auto& x : headers) hs = curl_slist_append(hs, x.c_str());
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hs);
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(p.connect_timeout_s * 1000));
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, std::max(1L, static_cast<long>(std::lround(p.low_speed_time_s))));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever this libcurl can decode
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  // No total timeout: a long answer streams for minutes. TLS verification stays on (the default).

  CURLM* m = curl_multi_init();
  curl_multi_add_handle(m, h);
  Outcome o;
  int running = 1;
  while (true) {
    curl_multi_perform(m, &running);
    if (!running) break;
    if (cancelled(t.cancel)) {
      t.aborted = true;
      break;
    }
    curl_multi_poll(m, nullptr, 0, 100, nullptr);
  }
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(m, &left))
    if (msg->msg == CURLMSG_DONE) o.code = msg->data.result;
  if (t.aborted && o.code == CURLE_OK) o.code = CURLE_ABORTED_BY_CALLBACK;
  o.curl_error = errbuf[0] ? errbuf : curl_easy_strerror(o.code);
  if (t.status == 0) curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &t.status);
  curl_multi_remove_handle(m, h);
  curl_multi_cleanup(m);
  curl_easy_cleanup(h);
  curl_slist_free_all(hs);
  return o;
}

bool transport_retryable(CURLcode c) {
  switch (c) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

std::string redact(std::string s, const std::string& key) {
  if (key.size() >= 4)
    for (std::size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), "[redacted]");
  return s;
}

std::string describe(const ApiError& e) {
  std::string s;
  if (!e.type.empty()) s += e.type;
  if (!e.code.empty() && e.code != e.type) s += (s.empty() ? "" : "/") + e.code;
  if (!e.message.empty()) s += (s.empty() ? "" : ": ") + e.message;
  return s.empty() ? "(no error body)" : s;
}

// The decision for one failed exchange: retry (after `wait` when the server said) or give up with `error`.
struct Verdict {
  bool retry = false;
  ErrorKind kind = ErrorKind::Server;
  std::string why;
};

// The headers of every request: streaming JSON, and the key the way the provider takes it.
std::vector<std::string> request_headers(const Profile& p, const std::string& key) {
  std::vector<std::string> headers = {"Content-Type: application/json", "Accept: text/event-stream", "Expect:"};
  if (p.provider == Provider::Anthropic) {
    if (!key.empty()) headers.push_back("x-api-key: " + key);
    headers.push_back("anthropic-version: 2023-06-01");
  } else if (!key.empty()) {
    headers.push_back("Authorization: Bearer " + key);
  }
  return headers;
}

// An error event inside a 200 stream: retried when the server says it is its own passing trouble.
Verdict stream_error_verdict(const ApiError& e) {
  const bool transient = e.type == "overloaded_error" || e.type == "api_error" || e.type == "rate_limit_error" ||
                         e.type == "server_error" || e.code == "server_error";
  return {transient, transient ? ErrorKind::Overloaded : ErrorKind::BadRequest,
          "error event in the stream: " + describe(e)};
}

// A status other than 200: which ones are worth another try, and what to tell a person about the others.
Verdict http_error_verdict(long s, const std::string& error_body, const Profile& p) {
  const ApiError e = parse_api_error(error_body);
  const std::string said = "HTTP " + std::to_string(s) + " " + describe(e);
  if (s == 401 || s == 403) {
    const std::string where = p.api_key ? p.api_key->origin : "$" + p.api_key_env;
    return {false, ErrorKind::Auth, said + " (check the key in " + where + ")"};
  }
  if (s == 429 && (e.code == "insufficient_quota" || e.type == "insufficient_quota"))
    return {false, ErrorKind::Quota, said + " (the account's quota is spent; retrying will not help)"};
  if (s == 429) return {true, ErrorKind::RateLimit, said};
  if (s == 404) return {false, ErrorKind::NotFound, said + " (check base_url and model)"};
  if (s == 408 || s == 409 || s >= 500) return {true, s == 529 || s == 503 ? ErrorKind::Overloaded : ErrorKind::Server, said};
  return {false, ErrorKind::BadRequest, said};
}

// The reply from a complete stream: its text, the usage (estimated when the server sent none), time and cost.
void fill_reply(ChatReply& reply, StreamDecoder& dec, const ChatRequest& req, const Profile& p,
                Clock::time_point start) {
  reply.answer = std::move(dec.answer);
  reply.reasoning = std::move(dec.reasoning);
  reply.finish_reason = dec.finish_reason;
  reply.model = dec.model;
  reply.usage = dec.usage;
  if (!reply.usage.from_server) {
    reply.usage.prompt_tokens = estimate_tokens(p.provider, req.system);
    for (const auto& m : req.messages) reply.usage.prompt_tokens += estimate_tokens(p.provider, m.content);
    reply.usage.completion_tokens = estimate_tokens(p.provider, reply.answer) + estimate_tokens(p.provider, reply.reasoning);
  }
  reply.latency_s = std::chrono::duration<double>(Clock::now() - start).count();
  reply.cost = cost_of(p, reply.usage);
}

// How long to wait before try `attempt + 1`: what the server asked (refused past the cap), else a jittered
// exponential backoff.
double retry_delay(const Verdict& v, std::optional<double> wait, int attempt, long status, const Profile& p,
                   const std::string& where, const std::string& key) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  if (wait) {
    if (*wait > p.retry_after_cap_s)
      throw LlmError(v.kind, status,
                     redact(where + " failed: " + v.why + "; the server asks to wait " +
                                std::to_string(static_cast<long>(*wait)) + " s, longer than the limit of " +
                                std::to_string(static_cast<long>(p.retry_after_cap_s)) + " s", key));
    return *wait;
  }
  const double cap = std::min(p.backoff_cap_s, p.backoff_base_s * std::pow(2.0, attempt));
  return std::uniform_real_distribution<double>(0.0, cap)(rng);
}

// Sleeps `delay` seconds in short steps, so a cancel is seen within 50 ms.
void wait_to_retry(double delay, const std::atomic<bool>* cancel, const std::string& where) {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delay));
  while (Clock::now() < until) {
    if (cancelled(cancel)) throw LlmError(ErrorKind::Cancelled, 0, where + ": cancelled while waiting to retry");
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(50), until - Clock::now()));
  }
}

// The gate of one endpoint and model, shared by every Client of the process.
class Gate {
 public:
  // Waits for a free place and for any server-asked pause to pass; false when cancelled meanwhile.
  bool enter(int max_in_flight, const std::atomic<bool>* cancel) {
    std::unique_lock<std::mutex> lock(mu_);
    bool queued = false, held = false;
    while (true) {
      if (cancelled(cancel)) return false;
      const auto now = Clock::now();
      if (now < not_before_) {
        held = true;
        cv_.wait_until(lock, std::min(not_before_, now + std::chrono::milliseconds(50)));
      } else if (stats_.in_flight >= max_in_flight) {
        queued = true;
        cv_.wait_for(lock, std::chrono::milliseconds(50));
      } else {
        break;
      }
    }
    stats_.max_in_flight_seen = std::max(stats_.max_in_flight_seen, ++stats_.in_flight);
    stats_.waited_for_turn += queued;
    stats_.held_back += held;
    return true;
  }
  void leave() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      --stats_.in_flight;
    }
    cv_.notify_all();
  }
  // A server asked to slow down: nobody of this profile sends before `delay` seconds from now.
  void hold_back(double delay) {
    std::lock_guard<std::mutex> lock(mu_);
    not_before_ = std::max(not_before_, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                           std::chrono::duration<double>(delay)));
  }
  GateStats stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  Clock::time_point not_before_{};
  GateStats stats_;
};

Gate& gate_of(const Profile& p) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Gate>> gates;
  std::lock_guard<std::mutex> lock(mu);
  auto& g = gates[p.base_url + '\n' + p.model];
  if (!g) g = std::make_unique<Gate>();
  return *g;
}

// Holds a place in the gate for one request.
struct GateTurn {
  Gate& gate;
  ~GateTurn() { gate.leave(); }
};

}  // namespace

GateStats gate_stats(const Profile& p) { return gate_of(p).stats(); }

std::optional<double> cost_of(const Profile& p, const Usage& u) {
  if (!p.price_in_per_mtok || !p.price_out_per_mtok) return std::nullopt;
  return (u.prompt_tokens * *p.price_in_per_mtok + u.completion_tokens * *p.price_out_per_mtok) / 1e6;
}

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Client::Client(Profile profile, std::string api_key) : profile_(std::move(profile)), key_(std::move(api_key)) {
  global_init();
}

std::string Client::endpoint() const {
  std::string base = profile_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (profile_.provider == Provider::Anthropic) {
    // Accept both https://api.anthropic.com and https://api.anthropic.com/v1.
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0) return base + "/messages";
    return base + "/v1/messages";
  }
  return base + "/chat/completions";
}

ChatReply Client::chat(const ChatRequest& req, const std::atomic<bool>* cancel, const DeltaFn& on_delta) {
  const std::string url = endpoint();
  const std::string where = "LLM request to " + url + " (model " + profile_.model + ")";
  const std::vector<std::string> headers = request_headers(profile_, key_);
  ChatReply reply;
  const auto start = Clock::now();
  bool dropped_usage_once = false;
  for (int attempt = 0;; ++attempt) {
    if (cancelled(cancel)) throw LlmError(ErrorKind::Cancelled, 0, where + ": cancelled");
    const bool with_usage = profile_.provider == Provider::OpenAI && include_usage_;
    const std::string body = request_body(profile_, req, with_usage).dump();
    auto dec = make_decoder(profile_.provider);
    Transfer t(*dec, cancel, on_delta, attempt);
    Gate& gate = gate_of(profile_);
    if (!gate.enter(profile_.max_in_flight, cancel)) throw LlmError(ErrorKind::Cancelled, 0, where + ": cancelled");
    const Outcome o = [&] {
      GateTurn turn{gate};
      return perform(url, headers, body, profile_, t);
    }();
    if (t.aborted || cancelled(cancel)) throw LlmError(ErrorKind::Cancelled, t.status, where + ": cancelled");

    Verdict v;
    std::optional<double> wait;
    if (t.status == 200) {
      t.parser.finish();
      if (t.events == 0 && o.code == CURLE_OK) decode_whole_body(profile_.provider, t.raw, *dec);
    }
    const bool complete = dec->done || (!dec->finish_reason.empty() && dec->any_content);
    if (t.status == 200 && dec->error) {
      v = stream_error_verdict(*dec->error);
    } else if (t.status == 200 && o.code == CURLE_OK && complete) {
      fill_reply(reply, *dec, req, profile_, start);
      return reply;
    } else if (o.code != CURLE_OK) {
      const bool after_content = dec->any_content;
      v = {transport_retryable(o.code), ErrorKind::Network,
           std::string(after_content ? "connection dropped mid-stream: " : "connection failed: ") + o.curl_error};
    } else if (t.status == 200) {
      v = {true, ErrorKind::Incomplete, "the stream ended before its end marker ([DONE] or message_stop)"};
    } else if (t.status == 400 && with_usage && !dropped_usage_once) {
      // Some OpenAI-compatible servers (GLM) refuse stream_options: ask once more without it and count
      // the tokens ourselves.
      include_usage_ = false;
      dropped_usage_once = true;
      reply.usage_option_dropped = true;
      reply.retry_log.push_back("HTTP 400 with stream_options; resent without it");
      ++reply.retries;
      continue;
    } else {
      wait = t.retry_after;
      v = http_error_verdict(t.status, t.error_body, profile_);
    }
    if (!v.retry || attempt >= profile_.max_retries) {
      std::string msg = where + " failed: " + v.why;
      if (v.retry) msg += " (gave up after " + std::to_string(attempt + 1) + " tries)";
      throw LlmError(v.kind, t.status, redact(msg, key_));
    }
    const double delay = retry_delay(v, wait, attempt, t.status, profile_, where, key_);
    if (wait || v.kind == ErrorKind::RateLimit) gate.hold_back(delay);  // everyone of the profile slows down
    ++reply.retries;
    char buf[64];
    std::snprintf(buf, sizeof buf, "; waited %.2f s%s", delay, wait ? " (Retry-After)" : "");
    reply.retry_log.push_back(redact(v.why, key_) + buf);
    wait_to_retry(delay, cancel, where);
  }
}

}  // namespace kope::llm

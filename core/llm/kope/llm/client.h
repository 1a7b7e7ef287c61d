// The LLM client: OpenAI-compatible Chat Completions and Anthropic Messages, streamed over libcurl, with
// retries, cancellation and the server's own token usage. Holds the API key in memory only.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/llm/sse.h"

namespace kope::llm {

enum class Provider { OpenAI, Anthropic };
std::string_view provider_name(Provider p);
std::optional<Provider> provider_from_name(std::string_view s);

// A key handed to the core at run time by a front end (the window reads it from the system keychain), with where
// it came from, for messages. Never read from or written to a file, never recorded, never in an error message.
struct ApiKey {
  std::string value;
  std::string origin;  // e.g. "the system keychain"
};

struct Profile {
  std::string name;  // the profile's name in the settings file, or "flags"
  Provider provider = Provider::OpenAI;
  std::string base_url;  // e.g. http://localhost:8000/v1 (OpenAI) or https://api.anthropic.com (Anthropic)
  std::string model;
  int64_t context_window = 32768;   // W
  int64_t max_output_tokens = 4096;  // G
  double temperature = 0.2;
  std::optional<double> price_in_per_mtok, price_out_per_mtok;  // currency per million tokens, when known
  std::string api_key_env;  // the variable the key is read from; never the key itself
  std::optional<ApiKey> api_key;  // at run time only, from a front end: used instead of the variable

  // Transport; the defaults suit hosted APIs, the tests shorten them.
  double connect_timeout_s = 15;
  double low_speed_time_s = 120;  // a stream below 1 byte/s for this long is dropped (keep-alives count)
  int max_retries = 5;
  double backoff_base_s = 1.0;
  double backoff_cap_s = 60.0;
  double retry_after_cap_s = 300.0;  // a longer Retry-After is an error rather than a silent wait
  // Requests of this profile in flight at once over the whole process (`kope run --jobs N`); more wait their
  // turn. A 429 or a Retry-After holds every request of the profile back for that long, not only the one told.
  int max_in_flight = 8;
};

// The process-wide gate of a profile's requests (its endpoint and model): at most max_in_flight at once, and
// none before the time a server last asked everyone to wait until.
struct GateStats {
  int in_flight = 0, max_in_flight_seen = 0;
  int64_t waited_for_turn = 0;   // requests that queued for a free place
  int64_t held_back = 0;         // requests that waited out another request's 429 or Retry-After
};
GateStats gate_stats(const Profile& p);

struct Message {
  std::string role;  // "user" or "assistant"
  std::string content;
};

struct ChatRequest {
  std::string system;
  std::vector<Message> messages;
};

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  bool from_server = false;  // false: counted by kope's estimator (the server sent no figures)
};

// The cost of a request from the profile's prices (currency per million tokens); none unless both are set.
std::optional<double> cost_of(const Profile& p, const Usage& u);

// A piece of a streamed reply as it arrives, each kind of text apart.
struct Delta {
  std::string_view answer;     // new text of the answer (may be empty)
  std::string_view reasoning;  // new delta.reasoning_content / thinking text (may be empty)
  // Which try of the request the text belongs to (0: the first). A retry streams its reply again from the start,
  // so a view that shows the text drops what an earlier try sent.
  int try_index = 0;
  Usage usage;  // the server's figures as far as they have come (from_server false until it sends some)
};

struct ChatReply {
  std::string answer;
  std::string reasoning;  // delta.reasoning_content / thinking blocks, kept apart from the answer
  std::string finish_reason;
  std::string model;  // the model the server says answered ("model" of its reply), empty when it does not say
  Usage usage;
  double latency_s = 0;      // from the first send to the last byte, retries and waits included
  int retries = 0;           // requests sent beyond the first
  std::vector<std::string> retry_log;  // why each retry happened, and how long it waited
  bool usage_option_dropped = false;   // the server refused stream_options and the request went without it
  std::optional<double> cost;          // from the profile's prices, when both are known
};

enum class ErrorKind { Auth, Quota, BadRequest, NotFound, RateLimit, Overloaded, Server, Network, Incomplete, Cancelled };
std::string_view error_kind_name(ErrorKind k);

// What the server said in its error JSON ({"error": {"message", "type", "code"}}), or the raw body's start.
struct ApiError {
  std::string type, code, message;
};
ApiError parse_api_error(std::string_view body);

class LlmError : public Error {
 public:
  LlmError(ErrorKind kind, long status, const std::string& what) : Error(what), kind_(kind), status_(status) {}
  ErrorKind kind() const { return kind_; }
  long status() const { return status_; }  // HTTP status, 0 for transport failures

 private:
  ErrorKind kind_;
  long status_;
};

// Accumulates one streamed reply from its events; the same interface for both protocols.
class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  virtual void on_event(const SseEvent& e) = 0;
  bool done = false;  // the protocol's terminator arrived ([DONE] or message_stop)
  bool any_content = false;
  std::string answer, reasoning, finish_reason;
  std::string model;  // the model the server says answered, when it says
  Usage usage;
  std::optional<ApiError> error;  // an error event in a 200 stream
};
std::unique_ptr<StreamDecoder> make_decoder(Provider p);

// A 200 reply that is one JSON document instead of a stream (a server that ignores "stream": true): fills the
// decoder as if it had streamed. False when the body is not such a document.
bool decode_whole_body(Provider p, std::string_view body, StreamDecoder& dec);

// The JSON request body (never holds the key).
nlohmann::json request_body(const Profile& p, const ChatRequest& r, bool include_usage);

// Retry-After: delta seconds or an HTTP date; nullopt when absent or unreadable.
std::optional<double> parse_retry_after(std::string_view value);

// Estimated token count of text for a provider, before calibration: about 4 characters per token
// (3.5 for Anthropic's tokenizer), and one per CJK character or other multi-byte code point.
int64_t estimate_tokens(Provider p, std::string_view text);

// A running estimate over text that arrives in pieces: the same count as estimate_tokens() of the whole.
class TokenTally {
 public:
  void add(std::string_view text);
  int64_t tokens(Provider p) const;

 private:
  int64_t ascii_ = 0, wide_ = 0;
};

// Calls curl_global_init once; every main that may reach the network calls it before starting threads.
void global_init();

class Client {
 public:
  // Called on the requesting thread for each piece of the reply, and when the server's usage figures change.
  using DeltaFn = std::function<void(const Delta& delta)>;
  // `api_key` may be empty for local servers that need none.
  Client(Profile profile, std::string api_key);

  // Sends the request, retrying what can be retried. Throws LlmError (kind Cancelled when `cancel` became
  // true; within a second, during a transfer or a backoff wait).
  ChatReply chat(const ChatRequest& req, const std::atomic<bool>* cancel = nullptr, const DeltaFn& on_delta = {});

  const Profile& profile() const { return profile_; }
  std::string endpoint() const;

 private:
  Profile profile_;
  std::string key_;
  bool include_usage_ = true;  // turned off for the rest of the session once the server refused it
};

}  // namespace kope::llm

// The two wire protocols: request bodies, stream decoders, error bodies, Retry-After, token estimates.
#include <curl/curl.h>

#include <cctype>
#include <ctime>

#include "kope/llm/client.h"

namespace kope::llm {

using nlohmann::json;

std::string_view provider_name(Provider p) { return p == Provider::Anthropic ? "anthropic" : "openai"; }

std::optional<Provider> provider_from_name(std::string_view s) {
  if (s == "openai") return Provider::OpenAI;
  if (s == "anthropic") return Provider::Anthropic;
  return std::nullopt;
}

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::Auth: return "auth";
    case ErrorKind::Quota: return "quota";
    case ErrorKind::BadRequest: return "bad_request";
    case ErrorKind::NotFound: return "not_found";
    case ErrorKind::RateLimit: return "rate_limit";
    case ErrorKind::Overloaded: return "overloaded";
    case ErrorKind::Server: return "server";
    case ErrorKind::Network: return "network";
    case ErrorKind::Incomplete: return "incomplete";
    case ErrorKind::Cancelled: return "cancelled";
  }
  return "?";
}

namespace {

std::string str_of(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  return "";
}

ApiError error_from_json(const json& j) {
  ApiError e;
  const json& err = j.contains("error") ? j["error"] : j;
  if (err.is_object()) {
    e.type = str_of(err.value("type", json()));
    e.code = str_of(err.value("code", json()));
    e.message = str_of(err.value("message", json()));
  } else if (err.is_string()) {
    e.message = err.get<std::string>();  // some servers: {"error": "text"}
  }
  return e;
}

int64_t int_field(const json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

class OpenAiDecoder : public StreamDecoder {
 public:
  void on_event(const SseEvent& e) override {
    if (e.data == "[DONE]") {
      done = true;
      return;
    }
    json j = json::parse(e.data, nullptr, false);
    if (!j.is_object()) return;  // tolerate junk lines, as the SDKs do
    if (j.contains("error")) {
      error = error_from_json(j);
      return;
    }
    if (auto m = j.find("model"); m != j.end() && m->is_string() && model.empty()) model = m->get<std::string>();
    if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
      usage.prompt_tokens = int_field(*u, "prompt_tokens");
      usage.completion_tokens = int_field(*u, "completion_tokens");
      usage.from_server = true;
    }
    auto ch = j.find("choices");
    if (ch == j.end() || !ch->is_array() || ch->empty()) return;  // the usage chunk: choices [] or null
    const json& c = (*ch)[0];
    if (auto d = c.find("delta"); d != c.end() && d->is_object()) {
      if (auto t = d->find("content"); t != d->end() && t->is_string() && !t->get_ref<const std::string&>().empty()) {
        answer += t->get_ref<const std::string&>();
        any_content = true;
      }
      for (const char* k : {"reasoning_content", "reasoning"})
        if (auto t = d->find(k); t != d->end() && t->is_string() && !t->get_ref<const std::string&>().empty()) {
          reasoning += t->get_ref<const std::string&>();
          any_content = true;
        }
    }
    if (auto f = c.find("finish_reason"); f != c.end() && f->is_string()) finish_reason = f->get<std::string>();
  }
};

class AnthropicDecoder : public StreamDecoder {
 public:
  void on_event(const SseEvent& e) override {
    json j = json::parse(e.data, nullptr, false);
    if (!j.is_object()) return;
    const std::string type = j.value("type", e.event);
    if (type == "message_start") {
      if (j.contains("message") && j["message"].is_object()) model = j["message"].value("model", "");
      const json& u = j["message"].value("usage", json::object());
      // Input tokens include the cached parts, which Anthropic reports apart.
      usage.prompt_tokens = int_field(u, "input_tokens") + int_field(u, "cache_creation_input_tokens") +
                            int_field(u, "cache_read_input_tokens");
      usage.completion_tokens = int_field(u, "output_tokens");
      usage.from_server = true;
    } else if (type == "content_block_start") {
      const json& b = j.value("content_block", json::object());
      thinking_ = b.value("type", "") == "thinking" || b.value("type", "") == "redacted_thinking";
    } else if (type == "content_block_delta") {
      const json& d = j.value("delta", json::object());
      const std::string dt = d.value("type", "");
      if (dt == "text_delta") {
        (thinking_ ? reasoning : answer) += d.value("text", "");
        any_content = true;
      } else if (dt == "thinking_delta") {
        reasoning += d.value("thinking", "");
        any_content = true;
      }
    } else if (type == "message_delta") {
      if (j.contains("delta") && j["delta"].is_object() && j["delta"].contains("stop_reason"))
        finish_reason = str_of(j["delta"]["stop_reason"]);
      if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
        usage.completion_tokens = int_field(*u, "output_tokens");  // cumulative
        if (int64_t in = int_field(*u, "input_tokens")) usage.prompt_tokens = in;
        usage.from_server = true;
      }
    } else if (type == "message_stop") {
      done = true;
    } else if (type == "error") {
      error = error_from_json(j);
    }
  }

 private:
  bool thinking_ = false;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_decoder(Provider p) {
  if (p == Provider::Anthropic) return std::make_unique<AnthropicDecoder>();
  return std::make_unique<OpenAiDecoder>();
}

bool decode_whole_body(Provider p, std::string_view body, StreamDecoder& dec) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return false;
  if (j.contains("error") && !j["error"].is_null()) {
    dec.error = error_from_json(j);
    return true;
  }
  if (j.contains("model") && j["model"].is_string()) dec.model = j["model"].get<std::string>();
  if (p == Provider::OpenAI) {
    if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) return false;
    const json& c = j["choices"][0];
    const json& m = c.value("message", json::object());
    if (m.contains("content") && m["content"].is_string()) dec.answer = m["content"].get<std::string>();
    for (const char* k : {"reasoning_content", "reasoning"})
      if (m.contains(k) && m[k].is_string()) dec.reasoning += m[k].get<std::string>();
    if (c.contains("finish_reason") && c["finish_reason"].is_string()) dec.finish_reason = c["finish_reason"];
    if (j.contains("usage") && j["usage"].is_object()) {
      dec.usage.prompt_tokens = int_field(j["usage"], "prompt_tokens");
      dec.usage.completion_tokens = int_field(j["usage"], "completion_tokens");
      dec.usage.from_server = true;
    }
  } else {
    if (!j.contains("content") || !j["content"].is_array()) return false;
    for (const auto& b : j["content"]) {
      const std::string t = b.value("type", "");
      if (t == "text") dec.answer += b.value("text", "");
      else if (t == "thinking") dec.reasoning += b.value("thinking", "");
    }
    if (j.contains("stop_reason") && j["stop_reason"].is_string()) dec.finish_reason = j["stop_reason"];
    if (j.contains("usage") && j["usage"].is_object()) {
      const json& u = j["usage"];
      dec.usage.prompt_tokens = int_field(u, "input_tokens") + int_field(u, "cache_creation_input_tokens") +
                                int_field(u, "cache_read_input_tokens");
      dec.usage.completion_tokens = int_field(u, "output_tokens");
      dec.usage.from_server = true;
    }
  }
  dec.any_content = !dec.answer.empty() || !dec.reasoning.empty();
  dec.done = true;
  return true;
}

ApiError parse_api_error(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (j.is_object()) {
    ApiError e = error_from_json(j);
    if (!e.message.empty() || !e.type.empty() || !e.code.empty()) return e;
  }
  ApiError e;
  e.message = std::string(body.substr(0, 300));
  return e;
}

json request_body(const Profile& p, const ChatRequest& r, bool include_usage) {
  json msgs = json::array();
  if (p.provider == Provider::OpenAI && !r.system.empty()) msgs.push_back({{"role", "system"}, {"content", r.system}});
  for (const auto& m : r.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  json b = {{"model", p.model}, {"messages", msgs}, {"max_tokens", p.max_output_tokens},
            {"temperature", p.temperature}, {"stream", true}};
  if (p.provider == Provider::Anthropic) {
    if (!r.system.empty()) b["system"] = r.system;
  } else if (include_usage) {
    b["stream_options"] = {{"include_usage", true}};
  }
  return b;
}

std::optional<double> parse_retry_after(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  if (v.empty()) return std::nullopt;
  bool numeric = true;
  int dots = 0;
  for (char c : v) {
    if (c == '.') ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c))) numeric = false;
  }
  if (numeric && dots <= 1) return std::stod(std::string(v));
  const std::string s(v);
  time_t t = curl_getdate(s.c_str(), nullptr);
  if (t == -1) return std::nullopt;
  const double d = std::difftime(t, std::time(nullptr));
  return d > 0 ? d : 0.0;
}

void TokenTally::add(std::string_view text) {
  for (unsigned char c : text) {
    if (c < 0x80) ++ascii_;
    else if ((c & 0xC0) != 0x80) ++wide_;  // the lead byte of a multi-byte code point
  }
}

int64_t TokenTally::tokens(Provider p) const {
  const double per = p == Provider::Anthropic ? 3.5 : 4.0;
  return static_cast<int64_t>(ascii_ / per + 0.999) + wide_;
}

int64_t estimate_tokens(Provider p, std::string_view text) {
  TokenTally t;
  t.add(text);
  return t.tokens(p);
}

}  // namespace kope::llm

// The LLM client against a scripted server on 127.0.0.1: both protocols, awkward splits, retries, cancellation.
#include <gtest/gtest.h>

#include <thread>

#include <nlohmann/json.hpp>

#include "kope/llm/client.h"
#include "kope/llm/config.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope;
using namespace kope::llm;
using kope::test::ScriptedResponse;
using kope::test::ScriptedServer;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

const char* kKey = "sk-test-SECRET-0123456789";

Profile profile(Provider p, const std::string& url) {
  Profile pr;
  pr.name = "test";
  pr.provider = p;
  pr.base_url = p == Provider::OpenAI ? url + "/v1" : url;
  pr.model = "m";
  pr.api_key_env = "KOPE_TEST_KEY";
  pr.max_output_tokens = 256;
  pr.connect_timeout_s = 2;
  pr.low_speed_time_s = 10;
  pr.max_retries = 3;
  pr.backoff_base_s = 0.02;
  pr.backoff_cap_s = 0.1;
  return pr;
}

ChatRequest hello() { return {"be brief", {{"user", "say hi"}}}; }

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

TEST(Sse, ByteByByteEqualsWholeWithCommentsCrLfAndMultilineData) {
  const std::string text = ": keep-alive\r\n\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\n:x\n\ndata: three\r\r\ndata: [DONE]\n";
  std::vector<SseEvent> whole, bytes;
  SseParser p1([&](const SseEvent& e) { whole.push_back(e); });
  p1.feed(text);
  p1.finish();
  SseParser p2([&](const SseEvent& e) { bytes.push_back(e); });
  for (char c : text) p2.feed(std::string_view(&c, 1));
  p2.finish();
  ASSERT_EQ(whole.size(), 3u);
  ASSERT_EQ(bytes.size(), 3u);
  EXPECT_EQ(whole[0].event, "a");
  EXPECT_EQ(whole[0].data, "one\ntwo");
  EXPECT_EQ(whole[1].data, "three");
  EXPECT_EQ(whole[2].data, "[DONE]");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(whole[i].data, bytes[i].data);
  EXPECT_EQ(p2.comments(), 2);
}

TEST(LlmClient, OpenAiStreamSplitAtAwkwardBytesKeepsAnswerReasoningAndServerUsage) {
  // "é" and "中" are multi-byte: the cuts fall inside them, inside "data:", and between \r and \n.
  std::string body = ": keep-alive\r\n\r\n" +
                     test::openai_stream({"Hé", "llo 中", "文"}, "think first", 11, 7);
  // Use \r\n line ends for the first events.
  std::size_t e = body.find("é");
  std::size_t z = body.find("中");
  std::size_t d = body.find("data:", 20);
  std::size_t cr = body.find("\r\n");
  ScriptedServer srv({test::sse_response(test::cut_at(body, {cr + 1, d + 2, e + 1, z + 1, z + 2}), 15)});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  std::string streamed;
  ChatReply r = c.chat(hello(), nullptr, [&](const Delta& d) { streamed += d.answer; });
  EXPECT_EQ(r.answer, "Héllo 中文");
  EXPECT_EQ(streamed, r.answer);
  EXPECT_EQ(r.reasoning, "think first");
  EXPECT_TRUE(r.usage.from_server);
  EXPECT_EQ(r.usage.prompt_tokens, 11);
  EXPECT_EQ(r.usage.completion_tokens, 7);
  EXPECT_EQ(r.retries, 0);
  auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], std::string("Bearer ") + kKey);
  json b = json::parse(reqs[0].body);
  EXPECT_EQ(b["stream"], true);
  EXPECT_EQ(b["stream_options"]["include_usage"], true);
  EXPECT_EQ(b["messages"][0]["role"], "system");
  EXPECT_EQ(b["max_tokens"], 256);
}

TEST(LlmClient, AnthropicStreamWithThinkingPingAndUsage) {
  std::string body = test::anthropic_stream({"an", "swer"}, "hmm", 13, 9);
  std::vector<std::size_t> cuts;
  for (std::size_t i = 7; i < body.size(); i += 23) cuts.push_back(i);  // every 23 bytes, wherever that falls
  ScriptedServer srv({test::sse_response(test::cut_at(body, cuts), 1)});
  Profile pr = profile(Provider::Anthropic, srv.url());
  pr.price_in_per_mtok = 3;
  pr.price_out_per_mtok = 15;
  Client c(pr, kKey);
  ChatReply r = c.chat(hello());
  ASSERT_TRUE(r.cost.has_value());
  EXPECT_NEAR(*r.cost, (13 * 3 + 9 * 15) / 1e6, 1e-12);
  EXPECT_EQ(r.answer, "answer");
  EXPECT_EQ(r.reasoning, "hmm");
  EXPECT_EQ(r.usage.prompt_tokens, 13);
  EXPECT_EQ(r.usage.completion_tokens, 9);
  EXPECT_TRUE(r.usage.from_server);
  EXPECT_EQ(r.finish_reason, "end_turn");
  auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/messages");
  EXPECT_EQ(reqs[0].headers["x-api-key"], kKey);
  EXPECT_EQ(reqs[0].headers["anthropic-version"], "2023-06-01");
  EXPECT_EQ(reqs[0].headers.count("authorization"), 0u);
  json b = json::parse(reqs[0].body);
  EXPECT_EQ(b["system"], "be brief");
  EXPECT_EQ(b["messages"].size(), 1u);
  EXPECT_FALSE(b.contains("stream_options"));
}

TEST(LlmClient, RateLimitWaitsForRetryAfter) {
  ScriptedServer srv({test::error_response(429, R"({"error":{"message":"slow down","type":"rate_limit_error"}})",
                                           {{"Retry-After", "1"}}),
                      test::sse_response({test::openai_stream({"ok"})})});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  ChatReply r = c.chat(hello());
  EXPECT_EQ(r.answer, "ok");
  EXPECT_EQ(r.retries, 1);
  auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 2u);
  const double gap = std::chrono::duration<double>(reqs[1].at - reqs[0].at).count();
  EXPECT_GE(gap, 0.95);
  EXPECT_LT(gap, 3.0);
  ASSERT_EQ(r.retry_log.size(), 1u);
  EXPECT_NE(r.retry_log[0].find("Retry-After"), std::string::npos);
}

TEST(LlmClient, OverloadedAndErrorEventMidStreamAreRetried) {
  std::string partial = test::anthropic_stream({"lost"}).substr(0, 300);
  std::string err_event = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
  ScriptedServer srv({test::error_response(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
                      test::sse_response({partial.substr(0, partial.rfind("\n\n") + 2), err_event}),
                      test::sse_response({test::anthropic_stream({"fine"})})});
  Client c(profile(Provider::Anthropic, srv.url()), kKey);
  ChatReply r = c.chat(hello());
  EXPECT_EQ(r.answer, "fine");
  EXPECT_EQ(r.retries, 2);
  EXPECT_EQ(srv.requests().size(), 3u);
}

TEST(LlmClient, ConnectionDroppedMidStreamIsRetried) {
  std::string full = test::openai_stream({"part one ", "part two"});
  ScriptedResponse dropped = test::sse_response({full.substr(0, full.size() / 2)});
  dropped.drop = true;
  ScriptedServer srv({dropped, test::sse_response({full})});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  ChatReply r = c.chat(hello());
  EXPECT_EQ(r.answer, "part one part two");
  EXPECT_EQ(r.retries, 1);
  ASSERT_EQ(r.retry_log.size(), 1u);
  EXPECT_NE(r.retry_log[0].find("connection"), std::string::npos) << r.retry_log[0];
}

// The delta function says which kind each piece is: reasoning (reasoning_content, thinking) apart from the
// answer, for both protocols; the server's usage as it arrives; a retry's text under the retry's try number.
TEST(LlmClient, DeltasSayTheirKindUsageAndTry) {
  struct Seen {
    std::string answer, reasoning;
    std::vector<int> tries;
    Usage last;
    bool reasoning_before_answer = false;
  };
  auto follow = [](Seen& s) {
    return [&s](const Delta& d) {
      if (!d.reasoning.empty() && s.answer.empty()) s.reasoning_before_answer = true;
      s.answer += d.answer;
      s.reasoning += d.reasoning;
      s.tries.push_back(d.try_index);
      s.last = d.usage;
    };
  };
  for (Provider p : {Provider::OpenAI, Provider::Anthropic}) {
    const std::string body = p == Provider::OpenAI ? test::openai_stream({"an", "swer"}, "step by step", 11, 7)
                                                   : test::anthropic_stream({"an", "swer"}, "step by step", 13, 9);
    ScriptedServer srv({test::sse_response(test::cut_at(body, {body.size() / 3, body.size() / 2}), 5)});
    Seen s;
    ChatReply r = Client(profile(p, srv.url()), kKey).chat(hello(), nullptr, follow(s));
    EXPECT_EQ(s.answer, "answer") << provider_name(p);
    EXPECT_EQ(s.reasoning, "step by step") << provider_name(p);
    EXPECT_TRUE(s.reasoning_before_answer) << provider_name(p);
    EXPECT_TRUE(s.last.from_server) << provider_name(p);
    EXPECT_EQ(s.last.prompt_tokens, r.usage.prompt_tokens) << provider_name(p);
    EXPECT_EQ(s.last.completion_tokens, r.usage.completion_tokens) << provider_name(p);
  }
  // A stream dropped half-way is asked again: its text comes again, numbered as the second try.
  std::string full = test::openai_stream({"part one ", "part two"});
  ScriptedResponse dropped = test::sse_response({full.substr(0, full.find("part two"))});
  dropped.drop = true;
  ScriptedServer srv({dropped, test::sse_response({full})});
  Seen s;
  ChatReply r = Client(profile(Provider::OpenAI, srv.url()), kKey).chat(hello(), nullptr, follow(s));
  EXPECT_EQ(r.answer, "part one part two");
  EXPECT_EQ(s.answer, "part one part one part two");
  ASSERT_FALSE(s.tries.empty());
  EXPECT_EQ(s.tries.front(), 0);
  EXPECT_EQ(s.tries.back(), 1);
}

// The running tally counts what estimate_tokens counts of the whole, however the text is cut.
TEST(LlmClient, TokenTallyOfPiecesIsTheEstimateOfTheWhole) {
  const std::string text = "Héllo 中文, a kernel: for (int i = 0; i < n; ++i) y[i] = x[i];";
  for (Provider p : {Provider::OpenAI, Provider::Anthropic}) {
    TokenTally t;
    for (std::size_t i = 0; i < text.size(); i += 3) t.add(std::string_view(text).substr(i, 3));
    EXPECT_EQ(t.tokens(p), estimate_tokens(p, text));
  }
  Profile pr = profile(Provider::OpenAI, "http://127.0.0.1:1");
  EXPECT_FALSE(cost_of(pr, {1000, 100, true}).has_value());
  pr.price_in_per_mtok = 2;
  pr.price_out_per_mtok = 8;
  EXPECT_NEAR(*cost_of(pr, {1000, 100, true}), (1000 * 2 + 100 * 8) / 1e6, 1e-12);
}

TEST(LlmClient, AuthFailureIsNotRetriedAndNeverShowsTheKey) {
  ScriptedServer srv({test::error_response(401, std::string(R"({"error":{"message":"Incorrect API key provided: )") + kKey +
                                                    R"(","type":"invalid_request_error","code":"invalid_api_key"}})")});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  try {
    c.chat(hello());
    FAIL() << "expected an error";
  } catch (const LlmError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Auth);
    EXPECT_EQ(e.status(), 401);
    EXPECT_EQ(std::string(e.what()).find(kKey), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("KOPE_TEST_KEY"), std::string::npos) << e.what();
  }
  EXPECT_EQ(srv.requests().size(), 1u);
}

TEST(LlmClient, InsufficientQuotaIsNotRetried) {
  ScriptedServer srv({test::error_response(
      429, R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})",
      {{"Retry-After", "1"}})});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  try {
    c.chat(hello());
    FAIL() << "expected an error";
  } catch (const LlmError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Quota);
  }
  EXPECT_EQ(srv.requests().size(), 1u);
}

TEST(LlmClient, BadRequestOnStreamOptionsIsResentWithoutItAndTokensCounted) {
  // GLM-style: the server refuses stream_options with a 400 and streams no usage.
  ScriptedServer srv({test::error_response(400, R"({"error":{"code":"1210","message":"API 调用参数有误"}})"),
                      test::sse_response({test::openai_stream({"hello there"}, "", -1)}),
                      test::sse_response({test::openai_stream({"again"}, "", -1)})});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  ChatReply r = c.chat(hello());
  EXPECT_EQ(r.answer, "hello there");
  EXPECT_TRUE(r.usage_option_dropped);
  EXPECT_FALSE(r.usage.from_server);
  EXPECT_GT(r.usage.prompt_tokens, 0);
  EXPECT_GT(r.usage.completion_tokens, 0);
  ChatReply r2 = c.chat(hello());
  EXPECT_EQ(r2.answer, "again");
  auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_TRUE(json::parse(reqs[0].body).contains("stream_options"));
  EXPECT_FALSE(json::parse(reqs[1].body).contains("stream_options"));
  EXPECT_FALSE(json::parse(reqs[2].body).contains("stream_options")) << "remembered for the session";
}

TEST(LlmClient, PlainBadRequestIsFinal) {
  ScriptedServer srv({test::error_response(400, R"({"error":{"message":"bad"}})"),
                      test::error_response(400, R"({"error":{"message":"max_tokens too large","type":"invalid_request_error"}})")});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  EXPECT_THROW(c.chat(hello()), LlmError);
  EXPECT_EQ(srv.requests().size(), 2u);  // once with stream_options, once without, then final
}

TEST(LlmClient, SlowStreamCancelledWithinASecond) {
  ScriptedResponse slow;
  slow.headers = {{"Content-Type", "text/event-stream"}};
  for (int i = 0; i < 100; ++i) slow.body.push_back({": keep-alive\n\n", 200});
  ScriptedServer srv({slow});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  std::atomic<bool> cancel{false};
  Clock::time_point flagged;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    flagged = Clock::now();
    cancel = true;
  });
  try {
    c.chat(hello(), &cancel);
    ADD_FAILURE() << "expected cancellation";
  } catch (const LlmError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
  }
  const double after = since(flagged);
  t.join();
  EXPECT_LT(after, 1.0);
}

TEST(LlmClient, CancelledDuringBackoffWait) {
  ScriptedServer srv({test::error_response(429, R"({"error":{"message":"later"}})", {{"Retry-After", "30"}})});
  Client c(profile(Provider::OpenAI, srv.url()), kKey);
  std::atomic<bool> cancel{false};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto start = Clock::now();
  EXPECT_THROW(c.chat(hello(), &cancel), LlmError);
  t.join();
  EXPECT_LT(since(start), 1.5);
}

TEST(LlmClient, RetryAfterSecondsAndHttpDate) {
  EXPECT_DOUBLE_EQ(*parse_retry_after(" 7 "), 7.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0);  // in the past: at once
  EXPECT_FALSE(parse_retry_after("soon").has_value());
  char buf[64];
  std::time_t future = std::time(nullptr) + 100;
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&future));
  auto d = parse_retry_after(buf);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(*d, 100.0, 3.0);
}

TEST(LlmConfig, ProfilesFlagsAndErrorsNamingFileAndPointer) {
  test::TempDir dir;
  const auto file = dir / "llm.json";
  test::write_text(file, R"({"default": "local", "profiles": {
    "local": {"provider": "openai", "base_url": "http://localhost:8000/v1", "model": "qwen", "context_window": 32768},
    "claude": {"provider": "anthropic", "model": "claude-x", "price_in_per_mtok": 3, "price_out_per_mtok": 15}}})");
  Profile p = resolve_profile(std::nullopt, {}, file);
  EXPECT_EQ(p.name, "local");
  EXPECT_EQ(p.api_key_env, "OPENAI_API_KEY");
  Profile c = resolve_profile(std::string("claude"), {}, file);
  EXPECT_EQ(c.provider, Provider::Anthropic);
  EXPECT_EQ(c.base_url, "https://api.anthropic.com");
  EXPECT_EQ(c.api_key_env, "ANTHROPIC_API_KEY");
  ProfileOverrides f;
  f.model = "other";
  f.max_output_tokens = 1000;
  Profile o = resolve_profile(std::string("local"), f, file);
  EXPECT_EQ(o.model, "other");
  EXPECT_EQ(o.max_output_tokens, 1000);

  test::write_text(file, R"({"profiles": {"x": {"provider": "openai", "model": "m", "context_window": "big"}}})");
  try {
    load_profiles(file);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/profiles/x/context_window"), std::string::npos) << e.what();
  }
  test::write_text(file, R"({"profiles": {"x": {"provider": "openai", "model": "m", "api_key": "sk-no"}}})");
  EXPECT_THROW(load_profiles(file), Error);
  test::write_text(file, "{ not json");
  EXPECT_THROW(load_profiles(file), Error);

  Profile remote;
  remote.name = "r";
  remote.base_url = "https://api.example.com/v1";
  remote.api_key_env = "KOPE_TEST_UNSET_VARIABLE";
  try {
    api_key_for(remote);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("$KOPE_TEST_UNSET_VARIABLE"), std::string::npos);
  }
}

TEST(LlmClient, ServerIgnoringStreamAnswersWithOneDocument) {
  ScriptedServer srv({test::error_response(200, R"({"choices":[{"index":0,"message":{"role":"assistant","content":"whole","reasoning_content":"r"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}})"),
                      test::error_response(200, R"({"type":"message","content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"doc"}],"stop_reason":"end_turn","usage":{"input_tokens":4,"output_tokens":3}})")});
  ChatReply r = Client(profile(Provider::OpenAI, srv.url()), kKey).chat(hello());
  EXPECT_EQ(r.answer, "whole");
  EXPECT_EQ(r.reasoning, "r");
  EXPECT_EQ(r.usage.prompt_tokens, 5);
  ChatReply a = Client(profile(Provider::Anthropic, srv.url()), kKey).chat(hello());
  EXPECT_EQ(a.answer, "doc");
  EXPECT_EQ(a.reasoning, "t");
  EXPECT_EQ(a.usage.completion_tokens, 3);
}

TEST(LlmGate, AtMostMaxInFlightRequestsOfAProfileAtOnce) {
  ScriptedServer srv;
  srv.set_responder([](const test::RecordedRequest&) { return test::sse_response({test::openai_stream({"ok"})}, 300); });
  Profile p = profile(Provider::OpenAI, srv.url());
  p.max_in_flight = 2;
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      Client c(p, kKey);
      if (c.chat(hello()).answer == "ok") ++ok;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 4);
  EXPECT_EQ(srv.max_in_flight(), 2) << "the server should have seen two requests at once, never more";
  const GateStats st = gate_stats(p);
  EXPECT_EQ(st.max_in_flight_seen, 2);
  EXPECT_GE(st.waited_for_turn, 2);
  EXPECT_EQ(st.in_flight, 0);
}

TEST(LlmGate, ARateLimitHoldsBackEveryRequestOfTheProfileNotOnlyTheOneTold) {
  ScriptedServer srv({test::error_response(429, R"({"error":{"message":"slow down","type":"rate_limit_error"}})",
                                           {{"Retry-After", "1"}})});
  srv.set_responder([](const test::RecordedRequest&) { return test::sse_response({test::openai_stream({"ok"})}); });
  const Profile p = profile(Provider::OpenAI, srv.url());
  std::thread first([&] { Client(p, kKey).chat(hello()); });
  while (srv.requests().empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the 429 has been read
  ChatReply second = Client(p, kKey).chat(hello());
  first.join();
  EXPECT_EQ(second.answer, "ok");
  EXPECT_EQ(second.retries, 0) << "the other request waits; it is not failed";
  const auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 3u);
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_GE(std::chrono::duration<double>(reqs[i].at - reqs[0].at).count(), 0.9) << "request " << i;
  EXPECT_GE(gate_stats(p).held_back, 1);
}

// The agent's live hooks (kope/agent/live.h) against a scripted model that streams slowly: the prompt by tier
// before the first piece of the reply, the reply's answer and reasoning apart as they come, tokens and cost so
// far, a retry that starts the text again, and how each attempt ended, all matching what the transcript keeps.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "kope/agent/live.h"
#include "kope/agent/llm_policy.h"
#include "kope/agent/prompts.h"
#include "kope/agent/store.h"
#include "kope/loop/loop.h"
#include "kope/workspace/workspace.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope;
using namespace kope::agent;
using namespace kope::eval;
using namespace kope::exec;
using namespace kope::loop;
using namespace kope::workspace;

namespace {

using Clock = std::chrono::steady_clock;

// Every hook call in order, as a live view would see it.
struct Seen {
  struct Attempt {
    LiveAttempt who;
    std::vector<Section> sections, left_out;
    int64_t hot_tokens = 0;
    Clock::time_point prompt_at{}, first_delta_at{};
    std::string answer, reasoning;
    std::vector<LiveUsage> usages;
    int restarts = 0;
    std::optional<LiveEnd> end;
    std::thread::id thread;
  };
  std::mutex mu;
  std::vector<Attempt> attempts;

  AttemptHooks hooks() {
    AttemptHooks h;
    h.prompt = [this](const LiveAttempt& a, const Prompt& p) {
      std::lock_guard<std::mutex> l(mu);
      Attempt x;
      x.who = a;
      x.sections = p.sections;
      x.left_out = p.left_out;
      x.hot_tokens = p.budget.hot;
      x.prompt_at = Clock::now();
      x.thread = std::this_thread::get_id();
      attempts.push_back(std::move(x));
    };
    h.delta = [this](const LiveAttempt& a, const LiveDelta& d) {
      std::lock_guard<std::mutex> l(mu);
      Attempt& x = attempts.back();
      EXPECT_EQ(x.who.transcript_id, a.transcript_id);
      if (x.first_delta_at == Clock::time_point{}) x.first_delta_at = Clock::now();
      if (d.restart) {
        ++x.restarts;
        x.answer.clear();
        x.reasoning.clear();
      }
      x.answer += d.answer;
      x.reasoning += d.reasoning;
      x.usages.push_back(d.usage);
    };
    h.end = [this](const LiveAttempt& a, const LiveEnd& e) {
      std::lock_guard<std::mutex> l(mu);
      EXPECT_EQ(attempts.back().who.transcript_id, a.transcript_id);
      attempts.back().end = e;
    };
    return h;
  }
};

llm::Profile profile(const std::string& url) {
  llm::Profile p;
  p.name = "scripted";
  p.base_url = url + "/v1";
  p.model = "scripted-model";
  p.context_window = 16000;
  p.max_output_tokens = 1000;
  p.max_retries = 2;
  p.backoff_base_s = 0.01;
  p.backoff_cap_s = 0.02;
  return p;
}

class LiveHooks : public ::testing::Test {
 protected:
  test::TempDir dir;
  Suite suite = [this] {
    test::write_text(dir / "suite" / "a_affine.json", test::affine_task_json());
    return Suite::from_dir(dir / "suite");
  }();

  std::vector<TaskOutcome> run(test::ScriptedServer& srv, const llm::Profile& p, Seen& seen, int attempts) {
    Workspace ws = Workspace::open(dir / "ws");
    AgentStore store = AgentStore::open(ws.dir());
    Evaluator ev(EvalPaths::under(ws.dir()));
    LlmPolicyOptions po;
    po.context.arm = MemoryArm::Off;
    po.hooks = seen.hooks();
    LlmPolicy policy(llm::Client(p, ""), PromptTemplates::load("cpu", std::nullopt), store, nullptr, po);
    LoopOptions lo;
    lo.max_attempts = attempts;
    lo.eval = test::quick_options();
    auto out = run_loop_in_new_run(ws, ev, suite, policy, lo, "test").outcomes;
    for (auto& a : seen.attempts) {  // what the transcript keeps, to compare with what was seen live
      auto t = store.attempt(a.who.transcript_id);
      EXPECT_TRUE(t && t->exchange);
      if (t && t->exchange) {
        EXPECT_EQ(a.answer, t->exchange->answer);
        EXPECT_EQ(a.reasoning, t->exchange->reasoning);
      }
    }
    return out;
  }
};

}  // namespace

TEST_F(LiveHooks, ThePromptComesBeforeTheReplyWhichStreamsInWithTokensAndCost) {
  const std::string body = test::openai_stream({"I would ", "unroll the loop ", "by four."}, "Think about the cache.", 321, 17);
  std::vector<std::size_t> cuts;
  for (std::size_t i = 60; i < body.size(); i += 60) cuts.push_back(i);
  test::ScriptedServer srv({test::sse_response(test::cut_at(body, cuts), 40)});
  llm::Profile p = profile(srv.url());
  p.price_in_per_mtok = 2;
  p.price_out_per_mtok = 10;
  Seen seen;
  auto out = run(srv, p, seen, 1);
  ASSERT_EQ(out.at(0).attempts.size(), 1u);
  ASSERT_EQ(seen.attempts.size(), 1u);
  const Seen::Attempt& a = seen.attempts[0];
  EXPECT_EQ(a.who.task, "affine");
  EXPECT_EQ(a.who.iteration, 1);
  EXPECT_EQ(a.who.transcript_id, out[0].attempts[0].transcript_id);
  EXPECT_EQ(a.who.model, "scripted-model");
  EXPECT_TRUE(a.who.priced());
  EXPECT_EQ(*a.who.price_in_per_mtok, 2);
  EXPECT_GT(a.who.run_id, 0);
  // the prompt by tier, before the first piece of the reply
  ASSERT_FALSE(a.sections.empty());
  EXPECT_EQ(a.sections.front().tier, Tier::Hot);
  EXPECT_GT(a.hot_tokens, 0);
  ASSERT_NE(a.first_delta_at, Clock::time_point{});
  EXPECT_LT(a.prompt_at, a.first_delta_at);
  // answer and reasoning apart, as the transcript keeps them (checked in run())
  EXPECT_EQ(a.answer, "I would unroll the loop by four.");
  EXPECT_EQ(a.reasoning, "Think about the cache.");
  EXPECT_EQ(a.restarts, 0);
  // tokens so far: the prompt's estimate, and the completion growing with the text; cost from the prices
  ASSERT_GE(a.usages.size(), 3u);
  for (std::size_t i = 1; i < a.usages.size(); ++i) {
    EXPECT_GE(a.usages[i].completion_tokens, a.usages[i - 1].completion_tokens);
    EXPECT_GE(a.usages[i].elapsed_s, a.usages[i - 1].elapsed_s);
  }
  EXPECT_GT(a.who.prompt_estimate, a.hot_tokens);
  EXPECT_EQ(a.usages.front().prompt_tokens, a.who.prompt_estimate);
  EXPECT_FALSE(a.usages.front().from_server);
  EXPECT_GT(a.usages.back().completion_tokens, 0);
  ASSERT_TRUE(a.usages.back().cost.has_value());
  // the end: the server's figures and the cost they make
  ASSERT_TRUE(a.end.has_value());
  EXPECT_EQ(a.end->status, "no_candidate");
  EXPECT_TRUE(a.end->usage.from_server);
  EXPECT_EQ(a.end->usage.prompt_tokens, 321);
  EXPECT_EQ(a.end->usage.completion_tokens, 17);
  ASSERT_TRUE(a.end->usage.cost.has_value());
  EXPECT_NEAR(*a.end->usage.cost, (321 * 2 + 17 * 10) / 1e6, 1e-12);
  EXPECT_GT(a.end->usage.elapsed_s, 0.1);  // the pieces came 40 ms apart
}

// A stream dropped half-way is asked again: the live text starts over and ends as the transcript's answer; a
// profile without prices has no cost; a request that fails ends as "error" with its message.
TEST_F(LiveHooks, ARetryStartsTheTextAgainAndAFailureEndsAsAnError) {
  const std::string full = test::openai_stream({"first half, ", "second half."});
  test::ScriptedResponse dropped = test::sse_response({full.substr(0, full.find("second half"))});
  dropped.drop = true;
  test::ScriptedServer srv({dropped, test::sse_response({full}),
                            test::error_response(401, R"({"error": {"message": "denied 7f3e"}})")});
  Seen seen;
  EXPECT_ANY_THROW(run(srv, profile(srv.url()), seen, 2));  // the second attempt's 401 ends the run
  ASSERT_EQ(seen.attempts.size(), 2u);
  const Seen::Attempt& a = seen.attempts[0];
  EXPECT_EQ(a.restarts, 1);
  EXPECT_EQ(a.answer, "first half, second half.");
  EXPECT_FALSE(a.who.priced());
  EXPECT_FALSE(a.usages.back().cost.has_value());
  ASSERT_TRUE(a.end.has_value());
  EXPECT_FALSE(a.end->usage.cost.has_value());
  const Seen::Attempt& b = seen.attempts[1];
  EXPECT_EQ(b.who.iteration, 2);
  ASSERT_TRUE(b.end.has_value());
  EXPECT_EQ(b.end->status, "error");
  EXPECT_NE(b.end->error.find("denied 7f3e"), std::string::npos) << b.end->error;
}

// The agent: budget arithmetic, kernel extraction, and the whole loop against a scripted model on 127.0.0.1
// with real evaluation of the kernels it returns.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/agent/context.h"
#include "kope/agent/llm_policy.h"
#include "kope/agent/memory_experience.h"
#include "kope/memory/memory.h"
#include "kope/agent/prompts.h"
#include "kope/agent/store.h"
#include "kope/loop/loop.h"
#include "kope/loop/run_control.h"
#include "kope/loop/stop_rules.h"
#include "kope/workspace/workspace.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope::loop;
using namespace kope::workspace;

using namespace kope;
using namespace kope::agent;
using namespace kope::exec;
using namespace kope::eval;
using nlohmann::json;

namespace {

const char* kKey = "sk-test-SECRET-agent-987654321";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

Section hot(const std::string& name, const std::string& text) {
  Section s;
  s.name = name;
  s.text = text;
  return s;
}

ContextItem item(Tier t, const std::string& kind, int64_t id, const std::string& text, double rank) {
  ContextItem c;
  c.tier = t;
  c.source_kind = kind;
  c.source_id = id;
  c.label = kind + " " + std::to_string(id);
  c.text = text;
  c.rank = rank;
  return c;
}

}  // namespace

TEST(Assemble, BudgetArithmeticTiersQuotasAndLeftOut) {
  AssembleInput in;
  in.system = std::string(400, 's');  // 100 tokens at 4 chars each
  in.user_template = "{{spec}}{{experience}}{{background}}";
  in.hot = {hot("spec", std::string(800, 'h'))};  // 200 tokens
  in.items = {item(Tier::Warm, "case", 1, std::string(396, 'a'), 1.0),   // 100 with its newline
              item(Tier::Warm, "case", 2, std::string(396, 'b'), 3.0),
              item(Tier::Warm, "failure", 3, std::string(396, 'c'), 2.0),
              item(Tier::Cold, "doc", 0, std::string(396, 'd'), 1.0),
              item(Tier::Cold, "case", 4, std::string(1596, 'e'), 5.0)};  // 400: too big for what is left
  AssembleOptions o;
  o.quota_warm = 2;
  o.quota_cold = 4;
  o.reserve = 100;
  Estimator est{llm::Provider::OpenAI, 1.0};
  Prompt p = assemble(in, 1000, 200, o, est);
  EXPECT_EQ(p.budget.system, 100);
  EXPECT_EQ(p.budget.budget, 1000 - 100 - 200 - 100);  // B_k = 600
  EXPECT_EQ(p.budget.hot, 200);
  EXPECT_EQ(p.budget.warm, 200);  // the two best-ranked warm items: 2 then 3
  EXPECT_EQ(p.budget.cold, 100);  // the doc; case 4 did not fit
  std::vector<int64_t> warm_ids;
  for (const auto& s : p.sections)
    if (s.tier == Tier::Warm) warm_ids.push_back(s.source_id);
  EXPECT_EQ(warm_ids, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(p.left_out.size(), 2u);
  EXPECT_EQ(p.left_out[0].source_id, 1);
  EXPECT_EQ(p.left_out[0].name, "left out: quota");
  EXPECT_EQ(p.left_out[1].source_id, 4);
  EXPECT_EQ(p.left_out[1].name, "left out: budget");
  EXPECT_EQ(p.user.find('a'), std::string::npos);
  EXPECT_LT(p.user.find('b'), p.user.find('c'));

  // Off: no experience, documents only. Dump: insertion order, no quotas.
  o.arm = MemoryArm::Off;
  Prompt off = assemble(in, 1000, 200, o, est);
  EXPECT_EQ(off.budget.warm, 0);
  EXPECT_EQ(off.user.find('b'), std::string::npos);
  o.arm = MemoryArm::Dump;
  Prompt dump = assemble(in, 1000, 200, o, est);
  EXPECT_EQ(dump.budget.warm, 300);
  EXPECT_LT(dump.user.find('a'), dump.user.find('b'));

  // Calibration scales every estimate.
  Estimator twice{llm::Provider::OpenAI, 2.0};
  EXPECT_EQ(twice(std::string(400, 'x')), 200);
}

TEST(Assemble, InfeasibleHotPayloadNamesTheSizes) {
  AssembleInput in;
  in.system = "sys";
  in.user_template = "{{spec}}";
  in.hot = {hot("spec", std::string(4000, 'h'))};
  try {
    assemble(in, 1000, 200, AssembleOptions{}, Estimator{});
    FAIL();
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("context infeasible"), std::string::npos) << m;
    EXPECT_NE(m.find("1000"), std::string::npos) << m;
    EXPECT_NE(m.find("spec 1000"), std::string::npos) << m;
    EXPECT_NE(m.find("= 543 tokens"), std::string::npos) << m;  // 1000 - S 1 - G 200 - R 256 (the default floor)
  }
}

TEST(Extract, LastCompleteBlockDefiningTheKernel) {
  auto k = extract_kernel("Idea: unroll.\n```cpp\nint helper();\n```\nfinal:\n```c++\n// thought: unroll by 4\n"
                          "int kope_kernel(const kope_args* a) { return 0; }\n```\n```cpp\nint kope_kernel(const kope_args* a) {\n");
  EXPECT_EQ(k.thought, "unroll by 4");
  EXPECT_NE(k.source.find("kope_kernel"), std::string::npos);
  EXPECT_TRUE(k.why_none.empty());
  auto none = extract_kernel("I would vectorise the loop.");
  EXPECT_TRUE(none.source.empty());
  EXPECT_NE(none.why_none.find("no complete fenced"), std::string::npos);
  auto cut = extract_kernel("```cpp\nint kope_kernel(const kope_args* a) {");
  EXPECT_NE(cut.why_none.find("never closed"), std::string::npos);
  auto py = extract_kernel("```python\nkope_kernel = 1\n```");
  EXPECT_FALSE(py.why_none.empty());
  auto prose = extract_kernel("Use fma. More text.\n```\nint kope_kernel(const kope_args* a) { return 0; }\n```");
  EXPECT_EQ(prose.thought, "Use fma");
}

TEST(Prompts, EmbeddedCpuTemplatesAndOverrideFolder) {
  PromptTemplates t = PromptTemplates::load("cpu", std::nullopt);
  EXPECT_NE(t.user.find("{{spec}}"), std::string::npos);
  EXPECT_NE(t.abi.find("kope_kernel"), std::string::npos);
  EXPECT_FALSE(t.docs.empty());
  test::TempDir dir;
  test::write_text(dir / "cpu" / "system.md", "custom system for {{device}}");
  PromptTemplates o = PromptTemplates::load("cpu", dir.path());
  EXPECT_EQ(o.system, "custom system for {{device}}");
  EXPECT_EQ(o.user, t.user);
  EXPECT_THROW(PromptTemplates::load("npu", std::nullopt), Error);
}

namespace {

std::string kernel_reply(const std::string& thought, const std::string& expr) {
  return "Here is a kernel.\n\n```cpp\n// thought: " + thought + "\n" +
         test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = " + expr + ";") + "```\n";
}

std::string scale_task_json() {
  json j = json::parse(test::affine_task_json());
  j["name"] = "scale3";
  j["summary"] = "y = 3 * x - 1";
  for (auto& line : j["reference"])
    if (line.get<std::string>().find("2 * x[i] + 1") != std::string::npos)
      line = "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 3 * x[i] - 1;";
  return j.dump(2);
}

class AgentLoop : public ::testing::Test {
 protected:
  test::TempDir dir;
  Suite suite = [this] {
    test::write_text(dir / "suite" / "a_affine.json", test::affine_task_json());
    test::write_text(dir / "suite" / "b_scale3.json", scale_task_json());
    return Suite::from_dir(dir / "suite");
  }();

  struct Result {
    std::vector<TaskOutcome> outcomes;
    std::vector<test::RecordedRequest> requests;
    std::filesystem::path ws_dir;
    std::vector<int64_t> case_of;  // per attempt in order: its Case id in the memory (0: no evaluation)
  };

  // use_memory: the loop's Retrieve from the Experience Graph Memory; else the workspace's evaluations.
  Result run(MemoryArm arm, const std::string& ws_name, bool use_memory = true) {
    test::ScriptedServer srv({
        test::sse_response({test::openai_stream({"I would vectorise the loop with fma."})}),
        test::sse_response(test::cut_at(test::openai_stream({kernel_reply("fused multiply-add loop", "__builtin_fmaf(2.0f, x[i], 1.0f)")}), {40, 97})),
        test::sse_response({test::openai_stream({kernel_reply("same idea for 3x-1", "__builtin_fmaf(3.0f, x[i], -1.0f)")})}),
        test::sse_response({test::openai_stream({kernel_reply("plain loop", "3.0f * x[i] - 1.0f")})}),
    });
    Result r;
    r.ws_dir = dir / ws_name;
    Workspace ws = Workspace::open(r.ws_dir);
    AgentStore store = AgentStore::open(ws.dir());
    Evaluator ev(EvalPaths::under(ws.dir()));
    WorkspaceExperience experience(ws);
    llm::Profile p;
    p.name = "scripted";
    p.base_url = srv.url() + "/v1";
    p.model = "scripted-model";
    p.context_window = 16000;
    p.max_output_tokens = 1000;
    p.api_key_env = "KOPE_TEST_KEY";
    p.max_retries = 1;
    p.backoff_base_s = 0.01;
    LlmPolicyOptions po;
    po.context.arm = arm;
    LlmPolicy policy(llm::Client(p, kKey), PromptTemplates::load("cpu", std::nullopt), store,
                     use_memory ? nullptr : &experience, po);
    LoopOptions lo;
    lo.max_attempts = 2;
    lo.eval = test::quick_options();
    LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, lo, "test");
    r.outcomes = lr.outcomes;
    r.requests = srv.requests();
    memory::MemoryStore mem(ws.handle());
    for (const auto& o : r.outcomes)
      for (const auto& a : o.attempts)
        r.case_of.push_back(a.evaluation_id ? mem.case_of_evaluation(a.evaluation_id).value_or(-1) : 0);
    return r;
  }
};

std::string user_prompt(const test::RecordedRequest& r) {
  json b = json::parse(r.body);
  return b["messages"].back()["content"].get<std::string>();
}

}  // namespace

TEST_F(AgentLoop, SecondTaskCarriesACaseFromTheFirstAndNoCandidateIsExplained) {
  // Experience from the Experience Graph Memory, retrieved by the loop.
  Result r = run(MemoryArm::Active, "active");
  ASSERT_EQ(r.outcomes.size(), 2u);
  ASSERT_EQ(r.requests.size(), 4u);
  const TaskOutcome& first = r.outcomes[0];
  ASSERT_EQ(first.attempts.size(), 2u);
  EXPECT_EQ(first.attempts[0].status, "no_candidate");
  EXPECT_EQ(first.attempts[0].evaluation_id, 0);
  EXPECT_EQ(first.attempts[1].status, "passed") << first.attempts[1].message;
  EXPECT_EQ(first.attempts[1].thought, "fused multiply-add loop");
  // The next prompt says why the previous reply produced nothing.
  EXPECT_NE(user_prompt(r.requests[1]).find("produced no candidate"), std::string::npos);
  EXPECT_EQ(user_prompt(r.requests[0]).find("Case #"), std::string::npos) << "nothing to remember yet";
  // The second task's first prompt carries the first task's Case (cross-task experience).
  ASSERT_GT(r.case_of[1], 0);
  const std::string case_ref = "Case #" + std::to_string(r.case_of[1]) + " (task affine";
  const std::string p2 = user_prompt(r.requests[2]);
  EXPECT_NE(p2.find(case_ref), std::string::npos) << p2;
  EXPECT_NE(p2.find("fused multiply-add loop"), std::string::npos);
  EXPECT_EQ(r.outcomes[1].attempts[0].status, "passed") << r.outcomes[1].attempts[0].message;

  // Transcripts: sections with tier, source and tokens; the Case in the second task's prompt is recorded.
  AgentStore store = AgentStore::open(r.ws_dir);
  auto t = store.transcript(r.outcomes[1].attempts[0].transcript_id);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ((*t)["evaluation_id"], r.outcomes[1].attempts[0].evaluation_id);
  bool has_case = false;
  for (const auto& s : (*t)["sections"]) {
    EXPECT_GT(s["tokens"].get<int64_t>(), 0) << s.dump();
    if ((s["source_kind"] == "case" || s["source_kind"] == "failure") && s["source_id"] == r.case_of[1]) has_case = true;
  }
  EXPECT_TRUE(has_case) << t->dump(2);
  EXPECT_EQ((*t)["usage"]["prompt_tokens"], 11);
  EXPECT_EQ((*t)["usage"]["source"], "server");
  auto nc = store.transcript(first.attempts[0].transcript_id);
  EXPECT_EQ((*nc)["status"], "no_candidate");
  // Calibration learned from the server's figures (11 reported against a much larger estimate).
  EXPECT_LT(store.calibration("scripted|openai|scripted-model"), 1.0);

  // The key is nowhere in the workspace.
  for (const auto& e : std::filesystem::recursive_directory_iterator(r.ws_dir))
    if (e.is_regular_file()) {
      EXPECT_EQ(slurp(e.path()).find(kKey), std::string::npos) << e.path();
    }
}

TEST_F(AgentLoop, WorkspaceExperienceSourceCarriesTheFirstTasksKernel) {
  // The ExperienceSource fed by the workspace's recorded evaluations (no graph).
  Result r = run(MemoryArm::Active, "active-ws", false);
  ASSERT_EQ(r.outcomes.size(), 2u);
  ASSERT_EQ(r.requests.size(), 4u);
  const TaskOutcome& first = r.outcomes[0];
  ASSERT_EQ(first.attempts.size(), 2u);
  EXPECT_EQ(first.attempts[0].status, "no_candidate");
  EXPECT_EQ(first.attempts[0].evaluation_id, 0);
  EXPECT_EQ(first.attempts[1].status, "passed") << first.attempts[1].message;
  EXPECT_EQ(first.attempts[1].thought, "fused multiply-add loop");
  // The next prompt says why the previous reply produced nothing.
  EXPECT_NE(user_prompt(r.requests[1]).find("produced no candidate"), std::string::npos);
  EXPECT_EQ(user_prompt(r.requests[0]).find("Case #"), std::string::npos) << "nothing to remember yet";
  // The second task's first prompt carries the first task's Case (cross-task experience).
  const std::string case_ref = "Case #" + std::to_string(first.attempts[1].evaluation_id) + " (task affine";
  const std::string p2 = user_prompt(r.requests[2]);
  EXPECT_NE(p2.find(case_ref), std::string::npos) << p2;
  EXPECT_NE(p2.find("fused multiply-add loop"), std::string::npos);
  EXPECT_EQ(r.outcomes[1].attempts[0].status, "passed") << r.outcomes[1].attempts[0].message;

  // Transcripts: sections with tier, source and tokens; the Case in the second task's prompt is recorded.
  AgentStore store = AgentStore::open(r.ws_dir);
  auto t = store.transcript(r.outcomes[1].attempts[0].transcript_id);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ((*t)["evaluation_id"], r.outcomes[1].attempts[0].evaluation_id);
  bool has_case = false;
  for (const auto& s : (*t)["sections"]) {
    EXPECT_GT(s["tokens"].get<int64_t>(), 0) << s.dump();
    if (s["source_kind"] == "case" && s["source_id"] == first.attempts[1].evaluation_id) has_case = true;
  }
  EXPECT_TRUE(has_case) << t->dump(2);
  EXPECT_EQ((*t)["usage"]["prompt_tokens"], 11);
  EXPECT_EQ((*t)["usage"]["source"], "server");
  auto nc = store.transcript(first.attempts[0].transcript_id);
  EXPECT_EQ((*nc)["status"], "no_candidate");
  // Calibration learned from the server's figures (11 reported against a much larger estimate).
  EXPECT_LT(store.calibration("scripted|openai|scripted-model"), 1.0);

  // The key is nowhere in the workspace.
  for (const auto& e : std::filesystem::recursive_directory_iterator(r.ws_dir))
    if (e.is_regular_file()) {
      EXPECT_EQ(slurp(e.path()).find(kKey), std::string::npos) << e.path();
    }
}

TEST_F(AgentLoop, MemoryOffCarriesNoCase) {
  Result r = run(MemoryArm::Off, "off");
  ASSERT_EQ(r.requests.size(), 4u);
  for (const auto& q : r.requests) EXPECT_EQ(user_prompt(q).find("Case #"), std::string::npos);
  EXPECT_EQ(r.outcomes[1].attempts[0].status, "passed");
}

// The engineer's hint (RunControl, as the window's run controller sends it) goes into the next prompt as the
// hot section "Engineer's hints", is recorded in that attempt's transcript, and is consumed: the prompt after
// it carries none.
TEST_F(AgentLoop, EngineersHintGoesIntoTheNextPromptAndItsTranscript) {
  const std::string hint = "try __builtin_fmaf and keep the loop simple (hint 7f3a)";
  test::ScriptedServer srv({
      test::sse_response({test::openai_stream({kernel_reply("fma", "__builtin_fmaf(2.0f, x[i], 1.0f)")})}),
      test::sse_response({test::openai_stream({"no kernel this time"})}),
  });
  Workspace ws = Workspace::open(dir / "hints");
  AgentStore store = AgentStore::open(ws.dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  llm::Profile p;
  p.name = "scripted";
  p.base_url = srv.url() + "/v1";
  p.model = "scripted-model";
  p.context_window = 16000;
  p.max_output_tokens = 1000;
  p.max_retries = 1;
  p.backoff_base_s = 0.01;
  LlmPolicy policy(llm::Client(p, kKey), PromptTemplates::load("cpu", std::nullopt), store, nullptr, {});
  LoopOptions lo;
  lo.max_attempts = 2;
  lo.tasks = {"affine"};
  lo.eval = test::quick_options();
  lo.control = std::make_shared<RunControl>();
  lo.control->add_hint(hint);
  LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, lo, "test");
  const auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_NE(reqs[0].body.find("Engineer's hints"), std::string::npos) << reqs[0].body;
  EXPECT_NE(user_prompt(reqs[0]).find(hint), std::string::npos) << user_prompt(reqs[0]);
  EXPECT_EQ(user_prompt(reqs[1]).find(hint), std::string::npos) << "a hint is used once";
  EXPECT_EQ(user_prompt(reqs[1]).find("{{hints}}"), std::string::npos);
  ASSERT_EQ(lr.outcomes.size(), 1u);
  ASSERT_FALSE(lr.outcomes[0].attempts.empty());
  auto t = store.transcript(lr.outcomes[0].attempts[0].transcript_id);
  ASSERT_TRUE(t.has_value());
  bool recorded = false;
  for (const auto& s : (*t)["sections"])
    if (s["name"] == "hints" && s["tier"] == "hot" && s["source_kind"] == "engineer") recorded = true;
  EXPECT_TRUE(recorded) << t->dump(2);
}

TEST(AgentCli, RunAndTranscriptThroughTheBinaryNeverShowTheKey) {
  test::TempDir dir;
  test::write_text(dir / "suite" / "affine.json", test::affine_task_json());
  test::ScriptedServer srv({test::sse_response({test::openai_stream({kernel_reply("fma", "__builtin_fmaf(2.0f, x[i], 1.0f)")})})});
  const std::string ws = (dir / "ws").string();
  const std::string cmd = std::string("KOPE_TEST_KEY=") + kKey + " XDG_CONFIG_HOME=" + (dir / "cfg").string() + " " +
                          KOPE_CLI_BINARY + " run --policy llm --provider openai --base-url " + srv.url() +
                          "/v1 --model m --api-key-env KOPE_TEST_KEY --suite " + (dir / "suite").string() +
                          " --max-attempts 1 --warmup 1 --reps 3 --workspace " + ws + " --json 2>&1";
  auto sh = [](const std::string& c, int& rc) {
    std::string out;
    FILE* f = popen(c.c_str(), "r");
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    rc = WEXITSTATUS(pclose(f));
    return out;
  };
  int rc = -1;
  const std::string run_out = sh(cmd, rc);
  EXPECT_EQ(rc, 0) << run_out;
  EXPECT_EQ(run_out.find(kKey), std::string::npos);
  const std::string tr = sh(std::string(KOPE_CLI_BINARY) + " transcript 1 --workspace " + ws, rc);
  EXPECT_EQ(rc, 0) << tr;
  EXPECT_NE(tr.find("prompt sections"), std::string::npos) << tr;
  EXPECT_NE(tr.find("hot"), std::string::npos);
  EXPECT_NE(tr.find("--- answer ---"), std::string::npos);
  EXPECT_EQ(tr.find(kKey), std::string::npos);
  const std::string trj = sh(std::string(KOPE_CLI_BINARY) + " transcript 1 --json --workspace " + ws, rc);
  json j = json::parse(trj);
  EXPECT_EQ(j["status"], "passed");
  EXPECT_EQ(j["memory"], "active");
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path()))
    if (e.is_regular_file()) {
      EXPECT_EQ(slurp(e.path()).find(kKey), std::string::npos) << e.path();
    }
  // A missing key for a remote server is a clear error naming the variable.
  const std::string nokey = sh(std::string(KOPE_CLI_BINARY) +
                                   " run --policy llm --provider anthropic --model c --api-key-env KOPE_UNSET_KEY_VAR "
                                   "--workspace " + ws + " 2>&1", rc);
  EXPECT_EQ(rc, 2) << nokey;
  EXPECT_NE(nokey.find("$KOPE_UNSET_KEY_VAR"), std::string::npos) << nokey;
}

// Exit codes of `kope run --policy llm`: a model that cannot be reached, or keeps answering 5xx/529 or 429
// after the retries, is the environment (4); a refused key is bad input (2) and names the key's variable.
TEST(AgentCli, ExitCodesSayEnvironmentForAnUnreachableModelAndInputForABadKey) {
  test::TempDir dir;
  test::write_text(dir / "suite" / "affine.json", test::affine_task_json());
  auto sh = [](const std::string& c, int& rc) {
    std::string out;
    FILE* f = popen(c.c_str(), "r");
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    rc = WEXITSTATUS(pclose(f));
    return out;
  };
  // One retry at most, so the test is quick (the profile's own setting, from the settings file).
  auto run_against = [&](const std::string& base_url, const std::string& ws_name, int& rc) {
    test::write_text(dir / "cfg" / "kope" / "llm.json",
                     R"({"profiles": {"t": {"provider": "openai", "base_url": ")" + base_url +
                         R"(", "model": "m", "api_key_env": "KOPE_TEST_KEY", "max_retries": 1}}})");
    return sh(std::string("KOPE_TEST_KEY=") + kKey + " XDG_CONFIG_HOME=" + (dir / "cfg").string() + " " +
                  KOPE_CLI_BINARY + " run --policy llm --profile t --suite " + (dir / "suite").string() +
                  " --max-attempts 1 --workspace " + (dir / ws_name).string() + " 2>&1",
              rc);
  };
  int rc = -1;
  {
    test::ScriptedServer srv({test::error_response(503, R"({"error": {"message": "busy"}})"),
                              test::error_response(529, R"({"error": {"message": "overloaded"}})")});
    const std::string out = run_against(srv.url() + "/v1", "ws5xx", rc);
    EXPECT_EQ(rc, 4) << out;
    EXPECT_EQ(srv.requests().size(), 2u);
    EXPECT_EQ(out.find(kKey), std::string::npos);
  }
  {
    test::ScriptedServer srv({test::error_response(429, R"({"error": {"message": "slow down"}})"),
                              test::error_response(429, R"({"error": {"message": "slow down"}})")});
    const std::string out = run_against(srv.url() + "/v1", "ws429", rc);
    EXPECT_EQ(rc, 4) << out;
  }
  {
    // Nothing listens there: a connect failure.
    int port = 0;
    {
      test::ScriptedServer closed;
      port = std::stoi(closed.url().substr(closed.url().rfind(':') + 1));
    }
    const std::string out = run_against("http://127.0.0.1:" + std::to_string(port) + "/v1", "wsdown", rc);
    EXPECT_EQ(rc, 4) << out;
  }
  {
    test::ScriptedServer srv({test::error_response(401, R"({"error": {"message": "invalid api key"}})")});
    const std::string out = run_against(srv.url() + "/v1", "ws401", rc);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("KOPE_TEST_KEY"), std::string::npos) << out;
    EXPECT_EQ(out.find(kKey), std::string::npos);
    EXPECT_EQ(srv.requests().size(), 1u);  // never retried
  }
  {
    // A bad profile stays bad input.
    test::write_text(dir / "cfg" / "kope" / "llm.json", R"({"profiles": {"t": {"provider": "openai"}}})");
    const std::string out = sh(std::string("XDG_CONFIG_HOME=") + (dir / "cfg").string() + " " + KOPE_CLI_BINARY +
                                   " run --policy llm --profile t --workspace " + (dir / "wsbad").string() + " 2>&1",
                               rc);
    EXPECT_EQ(rc, 2) << out;
  }
}

TEST(AgentCli, CtrlCDuringARequestEndsTheRunWithinASecond) {
  test::TempDir dir;
  test::write_text(dir / "suite" / "affine.json", test::affine_task_json());
  test::ScriptedResponse slow;
  slow.headers = {{"Content-Type", "text/event-stream"}};
  for (int i = 0; i < 200; ++i) slow.body.push_back({": keep-alive\n\n", 100});
  test::ScriptedServer srv({slow});
  const std::string ws = (dir / "ws").string();
  const std::string base = srv.url() + "/v1";
  const std::string suite_dir = (dir / "suite").string();
  const std::string log = (dir / "out.txt").string();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    FILE* f = freopen(log.c_str(), "w", stdout);
    (void)f;
    dup2(fileno(stdout), 2);
    setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
    execl(KOPE_CLI_BINARY, KOPE_CLI_BINARY, "run", "--policy", "llm", "--provider", "openai", "--base-url", base.c_str(),
          "--model", "m", "--suite", suite_dir.c_str(), "--workspace", ws.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the request is in flight, then press Ctrl+C.
  for (int i = 0; i < 200 && srv.requests().empty(); ++i) usleep(50000);
  ASSERT_EQ(srv.requests().size(), 1u);
  usleep(300000);
  const auto sent = std::chrono::steady_clock::now();
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_LT(took, 1.0);
  ASSERT_TRUE(WIFEXITED(status)) << slurp(log);
  EXPECT_EQ(WEXITSTATUS(status), 130) << slurp(log);
  Workspace w = Workspace::open(ws);
  ASSERT_FALSE(w.runs(1).empty());
  EXPECT_EQ(w.runs(1)[0].status, "cancelled");
  AgentStore store = AgentStore::open(ws);
  auto t = store.transcript(1);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ((*t)["status"], "cancelled");
}

TEST(StopRules, EachRuleAndWhetherItEndsTheRun) {
  LoopOptions o;
  StopState s;
  EXPECT_TRUE(stop_reason(o, s, 1.0).reason.empty());
  o.target_speedup = 1.5;
  EXPECT_TRUE(stop_reason(o, s, 1.49).reason.empty());
  auto t = stop_reason(o, s, 1.5);
  EXPECT_NE(t.reason.find("target"), std::string::npos);
  EXPECT_FALSE(t.whole_run);
  o.patience = 3;
  s.since_improvement = 3;
  EXPECT_NE(stop_reason(o, s, 1.0).reason.find("without improvement"), std::string::npos);
  o.max_tokens_total = 100;
  s.tokens = 100;
  auto k = stop_reason(o, s, 1.0);
  EXPECT_NE(k.reason.find("token"), std::string::npos);
  EXPECT_TRUE(k.whole_run);
  o.max_tokens_total = 0;
  o.patience = 0;
  o.max_wall_seconds = 0.01;
  s.started -= std::chrono::seconds(1);
  auto w = stop_reason(o, s, 1.0);
  EXPECT_NE(w.reason.find("wall"), std::string::npos);
  EXPECT_TRUE(w.whole_run);
  std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  EXPECT_EQ(stop_reason(o, s, 1.0).reason, "cancelled");
}

TEST(AgentLoopStops, PatienceAndTokenBudgetEndTheLoop) {
  // Replies without a kernel: each is an attempt without improvement that costs 18 tokens.
  test::TempDir dir;
  test::write_text(dir / "suite" / "a_affine.json", test::affine_task_json());
  test::write_text(dir / "suite" / "b_scale3.json", scale_task_json());
  Suite suite = Suite::from_dir(dir / "suite");
  auto run = [&](LoopOptions lo, const std::string& name, std::size_t& requests) {
    test::ScriptedServer srv;
    for (int i = 0; i < 10; ++i) srv.add(test::sse_response({test::openai_stream({"no code, sorry"})}));
    Workspace ws = Workspace::open(dir / name);
    AgentStore store = AgentStore::open(ws.dir());
    Evaluator ev(EvalPaths::under(ws.dir()));
    llm::Profile p;
    p.name = "scripted";
    p.base_url = srv.url() + "/v1";
    p.model = "m";
    p.max_output_tokens = 500;
    LlmPolicy policy(llm::Client(p, ""), PromptTemplates::load("cpu", std::nullopt), store, nullptr, {});
    lo.eval = test::quick_options();
    auto out = run_loop_in_new_run(ws, ev, suite, policy, lo, "test").outcomes;
    requests = srv.requests().size();
    return out;
  };
  LoopOptions lo;
  lo.max_attempts = 10;
  lo.patience = 2;
  std::size_t n = 0;
  auto a = run(lo, "patience", n);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].attempts.size(), 2u);
  EXPECT_NE(a[0].stopped.find("without improvement"), std::string::npos);
  EXPECT_EQ(a[1].attempts.size(), 2u) << "patience is per task";
  EXPECT_EQ(n, 4u);
  LoopOptions lt;
  lt.max_attempts = 10;
  lt.max_tokens_total = 30;  // two replies of 18 tokens
  auto b = run(lt, "tokens", n);
  ASSERT_EQ(b.size(), 1u) << "the token budget ends the whole run";
  EXPECT_EQ(b[0].attempts.size(), 2u);
  EXPECT_NE(b[0].stopped.find("token budget"), std::string::npos);
  EXPECT_EQ(n, 2u);
}

TEST(AgentTranscript, AnthropicReasoningKeptApartAndRequestRecordedWithoutKey) {
  test::TempDir dir;
  test::write_text(dir / "suite" / "a_affine.json", test::affine_task_json());
  Suite suite = Suite::from_dir(dir / "suite");
  test::ScriptedServer srv({test::sse_response({test::anthropic_stream({"Just an idea, no code."}, "deep thoughts", 321, 12)})});
  Workspace ws = Workspace::open(dir / "ws");
  AgentStore store = AgentStore::open(ws.dir());
  EXPECT_EQ(store.schema_version(), kAgentSchemaVersion);
  Evaluator ev(EvalPaths::under(ws.dir()));
  llm::Profile p;
  p.name = "claude-test";
  p.provider = llm::Provider::Anthropic;
  p.base_url = srv.url();
  p.model = "claude-x";
  p.price_in_per_mtok = 3;
  p.price_out_per_mtok = 15;
  LlmPolicy policy(llm::Client(p, kKey), PromptTemplates::load("cpu", std::nullopt), store, nullptr, {});
  LoopOptions lo;
  lo.max_attempts = 1;
  auto out = run_loop_in_new_run(ws, ev, suite, policy, lo, "test").outcomes;
  ASSERT_EQ(out[0].attempts.size(), 1u);
  EXPECT_EQ(out[0].attempts[0].status, "no_candidate");
  auto t = store.transcript(out[0].attempts[0].transcript_id);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ((*t)["reply"]["answer"], "Just an idea, no code.");
  EXPECT_EQ((*t)["reply"]["reasoning"], "deep thoughts");
  EXPECT_EQ((*t)["usage"]["prompt_tokens"], 321);
  EXPECT_EQ((*t)["usage"]["completion_tokens"], 12);
  EXPECT_NEAR((*t)["cost"].get<double>(), (321 * 3 + 12 * 15) / 1e6, 1e-12);
  EXPECT_EQ((*t)["request"]["model"], "claude-x");
  EXPECT_TRUE((*t)["request"].contains("system"));
  EXPECT_EQ(t->dump().find(kKey), std::string::npos);
  // Opening again migrates nothing and keeps the records (the migration is idempotent).
  AgentStore again = AgentStore::open(ws.dir());
  EXPECT_TRUE(again.transcript(out[0].attempts[0].transcript_id).has_value());
}

TEST(AgentMemory, AKernelTheMemorySaysFailedIsSkippedAndTheNextPromptSaysWhy) {
  test::TempDir dir;
  test::write_text(dir / "suite" / "a_affine.json", test::affine_task_json());
  Suite suite = Suite::from_dir(dir / "suite");
  const std::string wrong = kernel_reply("off by one", "2.0f * x[i]");
  test::ScriptedServer srv({test::sse_response({test::openai_stream({wrong})}),
                            test::sse_response({test::openai_stream({wrong})}),
                            test::sse_response({test::openai_stream({kernel_reply("right", "2.0f * x[i] + 1.0f")})})});
  Workspace ws = Workspace::open(dir / "ws");
  AgentStore store = AgentStore::open(ws.dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  llm::Profile p;
  p.name = "scripted";
  p.base_url = srv.url() + "/v1";
  p.model = "m";
  p.max_output_tokens = 1000;
  LlmPolicy policy(llm::Client(p, ""), PromptTemplates::load("cpu", std::nullopt), store, nullptr, {});
  LoopOptions lo;
  lo.max_attempts = 1;
  lo.eval = test::quick_options();
  auto first = run_loop_in_new_run(ws, ev, suite, policy, lo, "first").outcomes;
  ASSERT_EQ(first[0].attempts.size(), 1u);
  EXPECT_EQ(first[0].attempts[0].status, "wrong");
  auto second = run_loop_in_new_run(ws, ev, suite, policy, lo, "second").outcomes;
  ASSERT_EQ(second[0].skipped.size(), 1u);
  ASSERT_EQ(second[0].attempts.size(), 1u);
  EXPECT_EQ(second[0].attempts[0].status, "passed");
  auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_NE(user_prompt(reqs[2]).find("was not run"), std::string::npos) << user_prompt(reqs[2]);
  auto ids = store.attempts_of_run(2);
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ((*store.transcript(ids[0]))["status"], "skipped");
}

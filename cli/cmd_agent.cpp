// The LLM agent's commands: `kope run --policy llm` (its options and its run; `run` itself is in cmd_run.cpp)
// and `kope transcript ATTEMPT`, an attempt's prompt sections, reply, usage and cost.
#include <atomic>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/agent/store.h"
#include "kope/base/error.h"
#include "kope/base/format.h"
#include "kope/cli/cli.h"
#include "kope/cli/common.h"
#include "kope/cli/print_report.h"
#include "kope/cli/run.h"
#include "kope/eval/evaluator.h"
#include "kope/llm/config.h"
#include "kope/loop/run_control.h"
#include "kope/workspace/workspace.h"

using namespace kope::eval;
using namespace kope::loop;
using namespace kope::workspace;
using namespace kope::exec;

namespace kope::cli {

namespace {

using nlohmann::json;

// Set when the run is stopped (Ctrl+C, SIGTERM: through the RunControl's cancel token); the loop polls it.
// A global, because the token's callback may outlive the command's frame.
std::atomic<bool> g_interrupted{false};

// Network failures, 5xx/529 and rate limits that outlasted the retries, and streams that kept breaking.
bool llm_error_is_environmental(llm::ErrorKind k) {
  using K = llm::ErrorKind;
  return k == K::Network || k == K::Server || k == K::Overloaded || k == K::RateLimit || k == K::Incomplete;
}

void print_outcomes(const LoopRun& lr, const Workspace& ws, int64_t tokens, std::ostream& out) {
  out << std::left << std::setw(26) << "task" << std::setw(10) << "attempts" << std::setw(10) << "speedup"
      << "incumbent\n";
  for (const auto& o : lr.outcomes) {
    out << std::left << std::setw(26) << o.task << std::setw(10) << o.attempts.size() << std::setw(10)
        << format::speedup(o.incumbent_speedup) << o.incumbent_name << "\n";
    if (!o.stopped.empty()) out << "    stopped: " << o.stopped << "\n";
    if (!o.error.empty()) out << "    error: " << o.error << "\n";
  }
  out << "run " << lr.run_id << " recorded in " << ws.dir().string() << " (" << tokens
      << " model tokens; `kope transcript ATTEMPT` shows an attempt)\n";
}

// The loop under signal steering: SIGINT/SIGTERM stop now (the model's request and the running evaluation are
// cancelled, its worker trees killed), SIGTSTP/SIGUSR1 pause, SIGCONT/SIGUSR2 resume.
LoopRun steered_loop(Workspace& ws, Evaluator& ev, const Suite& suite, const PolicyFactory& policies,
                     const LoopOptions& lo, const Invocation& inv) {
  try {
    SignalSteering signals(*lo.control);
    return run_loop_in_new_run(ws, ev, suite, policies, lo, inv.command_line(),
                               [&inv](const LoopEvent& e) { print_attempt(e, inv.err); });
  } catch (const llm::LlmError& e) {
    // The model could not be reached or kept failing after every retry: the environment, not the input (exit
    // 4). A refused key (401/403, the message names its variable), a bad request or model stay bad input (2).
    if (llm_error_is_environmental(e.kind())) throw EnvError(e.what());
    throw;
  }
}

// The agent of one thread of tasks, adding the tokens it spends to the run's count (`--jobs N` has several).
class Counted final : public Policy {
 public:
  Counted(std::unique_ptr<Policy> p, std::atomic<int64_t>& tokens) : p_(std::move(p)), tokens_(tokens) {}
  std::string name() const override { return p_->name(); }
  std::optional<Proposal> propose(const PolicyState& s) override {
    std::optional<Proposal> out = p_->propose(s);
    if (out) tokens_ += out->tokens;
    return out;
  }
  void recorded(const Proposal& p, int64_t e, const std::string& st) override { p_->recorded(p, e, st); }

 private:
  std::unique_ptr<Policy> p_;
  std::atomic<int64_t>& tokens_;
};

}  // namespace

std::vector<std::string> add_llm_options(CLI::App& app, agent::PolicyChoice& c) {
  const std::string group = "LLM policy (--policy llm; flags override the profile from "
                            "$XDG_CONFIG_HOME/kope/llm.json, else ~/.config/kope/llm.json)";
  llm::ProfileOverrides& f = c.overrides;
  std::vector<CLI::Option*> opts = {
      add_text(app, "--profile", c.profile, "NAME", "a named profile of the settings file (default: its \"default\")"),
      add_value(app, "--settings", [&c](const std::string& v) { c.settings = v; }, "FILE", "another settings file"),
      add_text(app, "--provider", f.provider, "P", "openai (any OpenAI-compatible server) or anthropic"),
      add_text(app, "--base-url", f.base_url, "URL", "e.g. http://localhost:8000/v1 (vLLM), https://api.anthropic.com"),
      add_text(app, "--model", f.model, "M", "the model name the server knows"),
      add_text(app, "--api-key-env", f.api_key_env, "VAR",
               "the environment variable holding the key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)"),
      add_whole(app, "--context-window", f.context_window, 256, int64_t{1} << 32, "W, tokens"),
      add_whole(app, "--max-output", f.max_output_tokens, 16, int64_t{1} << 30, "G, tokens"),
      add_number(app, "--temperature", f.temperature, 0, 2, "sampling temperature"),
      add_value(app, "--memory", [&c](const std::string& v) {
        auto arm = agent::arm_from_name(v);
        if (!arm) throw UsageError("--memory expects off, dump or active, got \"" + v + "\"");
        c.context.arm = *arm;
      }, "ARM", "off: no experience; dump: all experience that fits, unranked; active: ranked and tiered (default)"),
      add_whole(app, "--qw", c.context.quota_warm, 0, 1000, "at most N warm items"),
      add_whole(app, "--qc", c.context.quota_cold, 0, 1000, "at most N cold items (other operators' Cases)"),
      add_whole(app, "--qd", c.context.quota_docs, 0, 1000,
                "at most N of the device's documents, ranked by the task and the latest feedback"),
      add_value(app, "--reserve", [&c](const std::string& v) {
        c.context.reserve = parse_whole("--reserve", v, 0, int64_t{1} << 30);
      }, "N", "R, tokens (0 to 1073741824; default: 5% of W, at least 256)"),
      add_value(app, "--prompts", [&c](const std::string& v) { c.prompts = v; }, "DIR",
                "prompt templates overriding the embedded ones (DIR/<device>/system.md, user.md, abi.md)")};
  std::vector<std::string> names;
  for (CLI::Option* o : opts) {
    o->group(group);
    names.push_back(o->get_name());
  }
  return names;
}

int run_llm(const RunRequest& r, const Invocation& inv) {
  const device::DevicePool pool = require_pool(r.device);  // the agent's prompts come from this device's pack
  const Suite suite = r.suite.load_at_levels("all");
  for (const auto& name : r.loop.tasks) suite.require(name);
  agent::PolicyChoice choice = r.policy;
  choice.device = pool.specs.front();
  agent::check_policy_choice(choice);  // a bad profile or key leaves no workspace behind
  Workspace ws = Workspace::open(inv.workspace_dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  LoopOptions lo = r.loop;
  apply_pool(pool, lo);
  g_interrupted.store(false);
  lo.cancel = &g_interrupted;
  lo.control = std::make_shared<RunControl>();
  lo.eval.cancel = lo.control->cancel_token();
  lo.control->cancel_token()->on_cancel([] { g_interrupted.store(true); });
  std::ostream& err = inv.err;
  lo.eval_progress = [&err](const std::string& task, const EvalProgress& p) { print_goldens(task, p, err); };
  lo.control->on_act = [&err](const SteeringAct& s) { err << "-- " << s.act << (s.detail.empty() ? "" : " " + s.detail) << "\n"; };
  choice.cancel = lo.control->cancel_token();
  std::atomic<int64_t> tokens{0};
  const PolicyFactory policies = [&choice, &tokens](Workspace& w) {
    return std::make_unique<Counted>(agent::make_policy(choice, w), tokens);
  };
  const llm::Profile profile = llm::resolve_profile(choice.profile, choice.overrides,
                                                    choice.settings.value_or(llm::settings_path()));
  const LoopRun lr = steered_loop(ws, ev, suite, policies, lo, inv);
  const bool cancelled = g_interrupted.load();
  if (cancelled) ws.finish_run(lr.run_id, "cancelled");
  if (r.json)
    inv.out << json{{"run_id", lr.run_id}, {"workspace", ws.dir().string()}, {"policy", "llm"},
                    {"profile", llm::to_json(profile)}, {"memory", std::string(agent::arm_name(choice.context.arm))},
                    {"tokens", tokens.load()}, {"cancelled", cancelled}, {"tasks", to_json(lr.outcomes)}}
                   .dump(2) << "\n";
  else
    print_outcomes(lr, ws, tokens.load(), inv.out);
  if (cancelled) {
    err << "kope: cancelled; run " << lr.run_id << " recorded as cancelled\n";
    return 130;
  }
  for (const auto& o : lr.outcomes)
    if (!o.error.empty()) return kExitInternal;
  return kExitOk;
}

namespace {

void print_transcript_header(int64_t id, const json& j, std::ostream& out) {
  out << "attempt " << id << "  run " << j["run_id"] << "  task " << j["task"].get<std::string>() << " #"
      << j["iteration"] << "  " << j["provider"].get<std::string>() << " " << j["model"].get<std::string>()
      << " (profile " << j["profile"].get<std::string>() << ")  memory " << j["memory"].get<std::string>() << "\n";
  out << "status " << j["status"].get<std::string>();
  if (!j["evaluation_id"].is_null()) out << "  evaluation " << j["evaluation_id"];
  if (!j["reason"].get<std::string>().empty()) out << "  (" << j["reason"].get<std::string>() << ")";
  out << "\n";
  const json& b = j["budget"];
  out << "budget B_k = max(0, W " << b["W"] << " - S " << b["S"] << " - G " << b["G"] << " - R " << b["R"]
      << ") = " << b["B"] << "; hot " << b["hot"] << ", warm " << b["warm"] << " (Q_w " << b["Q_w"] << "), cold "
      << b["cold"] << " (Q_c " << b["Q_c"] << (b.contains("Q_d") ? ", Q_d " + b["Q_d"].dump() : std::string())
      << ")\n\nprompt sections:\n";
}

void print_transcript_sections(const json& j, std::ostream& out) {
  out << "  " << std::left << std::setw(6) << "tier" << std::setw(12) << "source" << std::setw(8) << "id"
      << std::setw(8) << "tokens" << "label\n";
  auto row = [&](const json& s) {
    out << "  " << std::left << std::setw(6) << s["tier"].get<std::string>() << std::setw(12)
        << s["source_kind"].get<std::string>() << std::setw(8) << s["source_id"].get<int64_t>() << std::setw(8)
        << s["tokens"].get<int64_t>() << s["label"].get<std::string>() << "\n";
  };
  for (const auto& s : j["sections"]) row(s);
  if (j["left_out"].empty()) return;
  out << "left out:\n";
  for (const auto& s : j["left_out"]) {
    out << "  (" << s["name"].get<std::string>() << ")";
    row(s);
  }
}

void print_transcript_reply(const json& j, std::ostream& out) {
  if (!j.contains("usage")) return;
  out << "\nusage: prompt " << j["usage"]["prompt_tokens"] << ", completion " << j["usage"]["completion_tokens"]
      << " (" << j["usage"]["source"].get<std::string>() << "; estimated prompt "
      << j["usage"]["estimated_prompt_tokens"] << ")  latency " << std::fixed << std::setprecision(2)
      << j["latency_s"].get<double>() << " s  retries " << j["retries"] << "  cost "
      << (j["cost"].is_null() ? std::string("unknown") : std::to_string(j["cost"].get<double>())) << "\n";
  for (const auto& r : j["retry_log"]) out << "  retry: " << r.get<std::string>() << "\n";
  if (!j["error"].get<std::string>().empty()) out << "error: " << j["error"].get<std::string>() << "\n";
  if (!j["reply"]["reasoning"].get<std::string>().empty())
    out << "\n--- reasoning ---\n" << j["reply"]["reasoning"].get<std::string>() << "\n";
  out << "\n--- answer ---\n" << j["reply"]["answer"].get<std::string>() << "\n";
}

class TranscriptCommand : public Command {
 public:
  std::string name() const override { return "transcript"; }
  std::string description() const override {
    return "an LLM attempt's prompt sections, reply, usage and cost";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"transcript ATTEMPT [--json]", description()},
            {"transcript --evaluation EVALUATION_ID", "the attempt that produced an evaluation"}};
  }

  void add_options(CLI::App& app) override {
    add_id(app, "ATTEMPT", attempt_, "attempt id", "the attempt's id (the run's progress lines show it)");
    add_id(app, "--evaluation", evaluation_, "evaluation id", "the attempt that produced this evaluation");
    add_json_option(app, json_);
  }

  int run(const Invocation& inv) override {
    if (!attempt_ && !evaluation_) throw UsageError("usage: kope transcript ATTEMPT [--json]");
    Workspace ws = Workspace::open(inv.workspace_dir());
    agent::AgentStore store = agent::AgentStore::open(ws.dir());
    int64_t id = attempt_.value_or(0);
    if (evaluation_) {
      auto at = store.attempt_of_evaluation(*evaluation_);
      if (!at)
        throw Error("no LLM attempt produced evaluation " + std::to_string(*evaluation_) + " in " + ws.dir().string());
      id = *at;
    }
    auto t = store.transcript(id);
    if (!t) throw Error("no LLM attempt " + std::to_string(id) + " in workspace " + ws.dir().string());
    if (json_) {
      inv.out << t->dump(2) << "\n";
      return kExitOk;
    }
    print_transcript_header(id, *t, inv.out);
    print_transcript_sections(*t, inv.out);
    print_transcript_reply(*t, inv.out);
    return kExitOk;
  }

 private:
  std::optional<int64_t> attempt_, evaluation_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> transcript_command() { return std::make_unique<TranscriptCommand>(); }

}  // namespace kope::cli

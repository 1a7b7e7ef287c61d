// `kope run --policy llm` and `kope transcript`: the agent's commands, registered with run_cli by the main.
#include "kope/cli/cli_agent.h"

#include <signal.h>

#include <atomic>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/agent/context.h"
#include "kope/agent/llm_policy.h"
#include "kope/agent/memory_experience.h"
#include "kope/agent/store.h"
#include "kope/cli/cli.h"
#include "kope/base/error.h"
#include "kope/llm/config.h"
#include "kope/loop/loop.h"
#include "kope/loop/run_control.h"
#include "kope/workspace/workspace.h"

namespace kope::agent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* kRunUsage = R"(usage: kope run --policy llm (--profile NAME | --provider openai|anthropic --base-url URL --model M) [options]

model (flags override the profile from $XDG_CONFIG_HOME/kope/llm.json, else ~/.config/kope/llm.json):
  --profile NAME          a named profile of the settings file (default: the file's "default")
  --settings FILE         another settings file
  --provider P            openai (any OpenAI-compatible server) or anthropic
  --base-url URL          e.g. http://localhost:8000/v1 (vLLM), https://api.anthropic.com
  --model M               the model name the server knows
  --api-key-env VAR       the environment variable holding the key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)
  --context-window N      W, tokens;  --max-output N  G, tokens;  --temperature T
context:
  --memory off|dump|active  no experience / all experience that fits, unranked / ranked and tiered (default)
  --qw N  --qc N          at most N warm / cold items (default 6 / 4);  --reserve N  R, tokens
  --prompts DIR           prompt templates overriding the embedded ones (DIR/<device>/system.md, user.md, abi.md)
stop rules:
  --max-attempts N        per task (default 8);  --patience K  stop a task after K attempts without improvement
  --target X              stop a task once its speedup reaches X
  --max-tokens-total N    stop the run after N model tokens;  --max-wall SECONDS  after this much time
also: --tasks A,B --suite DIR --workspace DIR --device cpu --json, and eval's --cases --warmup --reps --timeout
      --memory-mb --cxxflags. Ctrl+C cancels the request in flight and ends the run (exit 130).
)";

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;
  std::set<std::string> flags;
  std::optional<std::string> get(const std::string& k) const {
    auto it = options.find(k);
    return it == options.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  bool has(const std::string& f) const { return flags.count(f) > 0; }
};

Args parse(const std::vector<std::string>& argv, const std::set<std::string>& valued) {
  static const std::set<std::string> boolean = {"--json", "--help", "-h"};
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s.rfind("-", 0) != 0 || s == "-") {
      a.positional.push_back(s);
      continue;
    }
    std::string key = s, value;
    bool inline_value = false;
    if (auto eq = s.find('='); eq != std::string::npos) {
      key = s.substr(0, eq);
      value = s.substr(eq + 1);
      inline_value = true;
    }
    if (boolean.count(key)) {
      if (inline_value) throw Error("option " + key + " takes no value");
      a.flags.insert(key);
    } else if (valued.count(key)) {
      if (!inline_value) {
        if (i + 1 >= argv.size()) throw Error("option " + key + " needs a value");
        value = argv[++i];
      }
      a.options[key] = value;
    } else {
      throw Error("unknown option " + key + " (see kope run --policy llm --help)");
    }
  }
  return a;
}

double number(const Args& a, const std::string& k, double fallback, double lo, double hi) {
  auto v = a.get(k);
  if (!v) return fallback;
  try {
    std::size_t used = 0;
    double d = std::stod(*v, &used);
    if (used == v->size() && d >= lo && d <= hi) return d;
  } catch (const std::exception&) {
  }
  std::ostringstream m;
  m << k << " expects a number from " << lo << " to " << hi << ", got \"" << *v << "\"";
  throw Error(m.str());
}

int64_t whole(const Args& a, const std::string& k, int64_t fallback, int64_t lo, int64_t hi) {
  auto v = a.get(k);
  if (!v) return fallback;
  try {
    std::size_t used = 0;
    long long n = std::stoll(*v, &used);
    if (used == v->size() && n >= lo && n <= hi) return n;
  } catch (const std::exception&) {
  }
  throw Error(k + " expects a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" +
              *v + "\"");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

// Set when the run is stopped (Ctrl+C, SIGTERM: through the RunControl's cancel token); the LLM client and the
// loop poll it.
std::atomic<bool> g_interrupted{false};

// Network failures, 5xx/529 and rate limits that outlasted the retries, and streams that kept breaking.
bool llm_error_is_environmental(llm::ErrorKind k) {
  using K = llm::ErrorKind;
  return k == K::Network || k == K::Server || k == K::Overloaded || k == K::RateLimit || k == K::Incomplete;
}

std::string joined(const std::vector<std::string>& args) {
  std::string s = "kope";
  for (const auto& x : args) s += " " + x;
  return s;
}

std::string fmt_x(std::optional<double> v) {
  if (!v) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << *v << "x";
  return s.str();
}

int cmd_run(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  const Args a = parse(raw, {"--policy", "--profile", "--settings", "--provider", "--base-url", "--model",
                             "--api-key-env", "--context-window", "--max-output", "--temperature", "--memory", "--qw",
                             "--qc", "--reserve", "--prompts", "--max-attempts", "--patience", "--target",
                             "--max-tokens-total", "--max-wall", "--tasks", "--suite", "--workspace", "--device",
                             "--cases", "--warmup", "--reps", "--timeout", "--memory-mb", "--cxxflags"});
  if (a.has("--help") || a.has("-h")) {
    out << kRunUsage;
    return kExitOk;
  }
  const std::string device = a.get("--device").value_or("cpu");
  if (device != "cpu") throw Error("device \"" + device + "\" is not available in this build (devices: cpu)");
  llm::ProfileOverrides f;
  f.provider = a.get("--provider");
  f.base_url = a.get("--base-url");
  f.model = a.get("--model");
  f.api_key_env = a.get("--api-key-env");
  if (a.get("--context-window")) f.context_window = whole(a, "--context-window", 0, 256, int64_t{1} << 32);
  if (a.get("--max-output")) f.max_output_tokens = whole(a, "--max-output", 0, 16, int64_t{1} << 30);
  if (a.get("--temperature")) f.temperature = number(a, "--temperature", 0, 0, 2);
  const fs::path settings = a.get("--settings") ? fs::path(*a.get("--settings")) : llm::settings_path();
  const llm::Profile profile = llm::resolve_profile(a.get("--profile"), f, settings);
  const std::string key = llm::api_key_for(profile);

  LlmPolicyOptions po;
  const std::string arm = a.get("--memory").value_or("active");
  auto parsed_arm = arm_from_name(arm);
  if (!parsed_arm) throw Error("--memory expects off, dump or active, got \"" + arm + "\"");
  po.context.arm = *parsed_arm;
  po.context.quota_warm = static_cast<int>(whole(a, "--qw", po.context.quota_warm, 0, 1000));
  po.context.quota_cold = static_cast<int>(whole(a, "--qc", po.context.quota_cold, 0, 1000));
  po.context.reserve = whole(a, "--reserve", -1, 0, int64_t{1} << 30);
  po.cancel = &g_interrupted;
  std::optional<fs::path> prompts_dir;
  if (auto p = a.get("--prompts")) prompts_dir = *p;
  PromptTemplates templates = PromptTemplates::load(device, prompts_dir);

  LoopOptions lo;
  lo.device = device;
  lo.max_attempts = static_cast<int>(whole(a, "--max-attempts", lo.max_attempts, 1, 100000));
  lo.patience = static_cast<int>(whole(a, "--patience", 0, 0, 100000));
  lo.target_speedup = number(a, "--target", 0, 0, 1e9);
  lo.max_tokens_total = whole(a, "--max-tokens-total", 0, 0, int64_t{1} << 50);
  lo.max_wall_seconds = number(a, "--max-wall", 0, 0, 1e9);
  lo.cancel = &g_interrupted;
  lo.eval.warmup = static_cast<int>(whole(a, "--warmup", lo.eval.warmup, 0, 1000));
  lo.eval.reps = static_cast<int>(whole(a, "--reps", lo.eval.reps, 1, 10000));
  lo.eval.case_timeout_seconds = number(a, "--timeout", lo.eval.case_timeout_seconds, 0.001, 86400);
  lo.eval.memory_bytes = static_cast<uint64_t>(whole(a, "--memory-mb", static_cast<int64_t>(lo.eval.memory_bytes >> 20), 64, 1 << 20)) << 20;
  if (auto c = a.get("--cases")) lo.eval.cases = split(*c, ',');
  if (auto c = a.get("--cxxflags")) lo.eval.cxxflags = split(*c, ' ');
  if (auto t = a.get("--tasks")) lo.tasks = split(*t, ',');

  Suite suite = a.get("--suite") ? Suite::from_dir(*a.get("--suite")) : Suite::embedded();
  for (const auto& name : lo.tasks) suite.require(name);
  Workspace ws = Workspace::open(a.get("--workspace") ? fs::path(*a.get("--workspace")) : Workspace::default_dir());
  AgentStore store = AgentStore::open(ws.dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  // Active: the loop's Retrieve(s, M) from the Experience Graph Memory; dump: every Case, oldest first.
  memory::MemoryStore mem(ws.handle());
  MemoryDumpSource dump(mem);
  LlmPolicy policy(llm::Client(profile, key), templates, store,
                   po.context.arm == MemoryArm::Dump ? static_cast<ExperienceSource*>(&dump) : nullptr, po);

  g_interrupted.store(false);
  // Signals steer the run as they do the offline `kope run`: SIGINT/SIGTERM stop now (the model's request and
  // the running evaluation are cancelled, its worker trees killed), SIGTSTP/SIGUSR1 pause, SIGCONT/SIGUSR2 resume.
  lo.control = std::make_shared<RunControl>();
  lo.eval.cancel = lo.control->cancel_token();
  lo.control->cancel_token()->on_cancel([] { g_interrupted.store(true); });
  lo.control->on_act = [&err](const SteeringAct& s) { err << "-- " << s.act << (s.detail.empty() ? "" : " " + s.detail) << "\n"; };
  LoopRun lr;
  try {
    SignalSteering signals(*lo.control);
    lr = run_loop_in_new_run(ws, ev, suite, policy, lo, joined(raw), [&](const LoopEvent& e) {
      if (e.skipped) {
        err << "   skipped " << e.skipped->name << ": " << e.skipped->reason << "\n";
        return;
      }
      if (!e.attempt) {
        err << "== " << e.task << "\n";
        return;
      }
      err << "   attempt " << e.attempt->transcript_id << "  " << std::left << std::setw(14) << e.attempt->status
          << std::setw(9) << fmt_x(e.attempt->speedup) << (e.attempt->promoted ? "promoted  " : "")
          << e.attempt->thought.substr(0, 60) << "\n";
      if (e.attempt->status == "no_candidate") err << "      " << e.attempt->message << "\n";
    });
  } catch (const llm::LlmError& e) {
    // The model could not be reached or kept failing after every retry: the environment, not the input (exit
    // 4). A refused key (401/403, the message names its variable), a bad request or model stay bad input (2).
    if (llm_error_is_environmental(e.kind())) throw EnvError(e.what());
    throw;
  }
  const bool cancelled = g_interrupted.load();
  if (cancelled) ws.finish_run(lr.run_id, "cancelled");
  if (a.has("--json")) {
    out << json{{"run_id", lr.run_id}, {"workspace", ws.dir().string()}, {"policy", "llm"},
                {"profile", llm::to_json(profile)}, {"memory", arm}, {"tokens", policy.tokens_used()},
                {"cancelled", cancelled}, {"tasks", to_json(lr.outcomes)}}.dump(2) << "\n";
  } else {
    out << std::left << std::setw(26) << "task" << std::setw(10) << "attempts" << std::setw(10) << "speedup"
        << "incumbent\n";
    for (const auto& o : lr.outcomes) {
      out << std::left << std::setw(26) << o.task << std::setw(10) << o.attempts.size() << std::setw(10)
          << fmt_x(o.incumbent_speedup) << o.incumbent_name << "\n";
      if (!o.stopped.empty()) out << "    stopped: " << o.stopped << "\n";
      if (!o.error.empty()) out << "    error: " << o.error << "\n";
    }
    out << "run " << lr.run_id << " recorded in " << ws.dir().string() << " (" << policy.tokens_used()
        << " model tokens; `kope transcript ATTEMPT` shows an attempt)\n";
  }
  if (cancelled) {
    err << "kope: cancelled; run " << lr.run_id << " recorded as cancelled\n";
    return 130;
  }
  for (const auto& o : lr.outcomes)
    if (!o.error.empty()) return kExitInternal;
  return kExitOk;
}

int cmd_transcript(const std::vector<std::string>& raw, std::ostream& out) {
  const Args a = parse(raw, {"--workspace", "--evaluation"});
  if (a.has("--help") || a.has("-h")) {
    out << "usage: kope transcript ATTEMPT [--json] [--workspace DIR]\n"
           "       kope transcript --evaluation EVALUATION_ID [--json]\n";
    return kExitOk;
  }
  Workspace ws = Workspace::open(a.get("--workspace") ? fs::path(*a.get("--workspace")) : Workspace::default_dir());
  AgentStore store = AgentStore::open(ws.dir());
  int64_t id = 0;
  if (a.get("--evaluation")) {
    const int64_t e = whole(a, "--evaluation", 0, 1, INT64_MAX);
    auto at = store.attempt_of_evaluation(e);
    if (!at) throw Error("no LLM attempt produced evaluation " + std::to_string(e) + " in " + ws.dir().string());
    id = *at;
  } else {
    if (a.positional.size() < 2) throw Error("usage: kope transcript ATTEMPT [--json]");
    try {
      std::size_t used = 0;
      id = std::stoll(a.positional[1], &used);
      if (used != a.positional[1].size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw Error("attempt id must be a number, got \"" + a.positional[1] + "\"");
    }
  }
  auto t = store.transcript(id);
  if (!t) throw Error("no LLM attempt " + std::to_string(id) + " in workspace " + ws.dir().string());
  const json& j = *t;
  if (a.has("--json")) {
    out << j.dump(2) << "\n";
    return kExitOk;
  }
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
      << b["cold"] << " (Q_c " << b["Q_c"] << ")\n\nprompt sections:\n";
  out << "  " << std::left << std::setw(6) << "tier" << std::setw(12) << "source" << std::setw(8) << "id"
      << std::setw(8) << "tokens" << "label\n";
  auto row = [&](const json& s) {
    out << "  " << std::left << std::setw(6) << s["tier"].get<std::string>() << std::setw(12)
        << s["source_kind"].get<std::string>() << std::setw(8) << s["source_id"].get<int64_t>() << std::setw(8)
        << s["tokens"].get<int64_t>() << s["label"].get<std::string>() << "\n";
  };
  for (const auto& s : j["sections"]) row(s);
  if (!j["left_out"].empty()) {
    out << "left out:\n";
    for (const auto& s : j["left_out"]) {
      out << "  (" << s["name"].get<std::string>() << ")";
      row(s);
    }
  }
  if (j.contains("usage")) {
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
  return kExitOk;
}

}  // namespace

std::optional<int> agent_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return std::nullopt;
  if (args[0] == "transcript") return cmd_transcript(args, out);
  if (args[0] != "run") return std::nullopt;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--policy=llm" || (args[i] == "--policy" && i + 1 < args.size() && args[i + 1] == "llm"))
      return cmd_run(args, out, err);
  }
  return std::nullopt;
}

void install_cli() {
  llm::global_init();
  set_cli_extension(&agent_cli);
}

}  // namespace kope::agent

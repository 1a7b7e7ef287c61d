#include "kope/cli/cli.h"
#include "kope/cli/cli_devices.h"
#include "kope/cli/cli_doctor.h"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli_args.h"
#include "kope/device/device.h"
#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/base/format.h"
#include "kope/loop/run_control.h"
#include "kope/base/fsutil.h"
#include "kope/cli/cli_review.h"
#include "kope/eval/library.h"
#include "kope/loop/loop.h"
#include "kope/model/stats.h"
#include "kope/base/text.h"
#include "kope/base/version.h"
#include "kope/model/suite.h"
#include "kope/eval/suite_report.h"
#include "kope/workspace/workspace.h"

namespace kope {

namespace fs = std::filesystem;
using nlohmann::json;


namespace {
CliExtension g_extension = nullptr;
}
void set_cli_extension(CliExtension ext) { g_extension = ext; }

namespace {

const char* kUsage = R"(usage: kope <command> [options]

commands:
  suite list [--level L] [--json]     the tasks of the suite (all levels, or those of --level)
  suite show TASK [--json]            one task: tensors, attributes, cases with resolved shapes
  eval --task TASK --kernel FILE      compile, check against the fp64 golden, time against the baseline
  eval --task TASK --library          the same for the task's library implementation (ATen on the CPU)
                                      speedup and HAP are against the library baseline where the task has one,
                                      the naive baseline as the second column (--no-library: naive only)
  run [--tasks A,B] [--level 1,2] [--max-attempts N]
                                      the optimisation loop: the policy proposes, kope executes and records,
                                      only a correct and faster kernel becomes the incumbent; without --tasks
                                      it runs the tasks of --level (default 1 for the embedded suite)
  report [--level 1,2] [--json]       per task the incumbent's speedups (all cases, memory-bound cases) and
                                      CANN Bench score; per suite the score, pass rate and fast_1
  history [--task TASK] [--limit N]   recorded evaluations, newest first
  show EVALUATION_ID                  the full stored report of one evaluation
  review list [--all] [--json]        kernels waiting for a person: faster than the hardware floor allows
  review approve EVAL_ID [--note TEXT]
                                      accept one; it becomes the incumbent if it still beats the current one
  review reject EVAL_ID --note TEXT   refuse one, saying why
  compare A B [--json]                two evaluations per case: both medians, B's speedup over A with its
                                      95% interval, correctness
  run --policy llm --profile NAME     the LLM agent (see `kope run --policy llm --help`)
  transcript ATTEMPT [--json]         an LLM attempt's prompt sections, reply, usage and cost
  memory cases|show|graph|retrieve|prune|unprune|pin|mark|journal|export|import
                                      the Experience Graph Memory (kope memory --help)
  devices [--json] [--device SPEC]    the devices present and why the others are not (SPEC: KIND or KIND@HOST)
  doctor [--json]                     what this machine gives kope (compiler, library baseline, sandbox, caches,
                                      timer, CPU frequency, isolation, SMT, load, devices): a verdict and what to
                                      do per check, then why verdicts here are trustworthy or weakened; exit 4
                                      when no kernel can be built here
  version

common options:
  --device SPEC           where kernels run: cpu (default), cuda, ascend, or KIND@[USER@]HOST[:PORT] over SSH
  --policy offline        the policy for `run` (this build: offline, the shipped kernels; no network)
  --suite DIR             task JSON files below DIR instead of the embedded suite
  --workspace DIR         where runs are recorded (default $KOPE_WORKSPACE or ~/.local/share/kope)
  --json                  machine-readable output on stdout

eval and run options:
  --cases A,B             only these cases
  --warmup N  --reps N    untimed and timed runs per case (default 1 and 5)
  --timeout SECONDS       per case, the runner's process group is killed past it (default 60)
  --memory-mb N           address-space limit of the runner (default 4096)
  --cxxflags "FLAGS"      the candidate's compiler flags instead of -O2 (a kernel may add its own with a
                          `// kope:cxxflags ...` line)
  --kernels DIR           run: the offline policy proposes DIR/<task>/*.cpp instead of the shipped kernels
  --recheck               run: evaluate candidates the memory says already failed here (skipped otherwise)

exit status:
  0  done, and every evaluated kernel correct
  1  a kernel failed (did not compile, wrong result, crash, timeout)
  2  bad usage or bad input (a task file, a kernel path, an option); the message names the file and field
  3  internal error (a bug in kope: please report it)
  4  environment failure: read-only or full disk, permission denied, locked or damaged database, a folder that
     cannot be made, a missing compiler or tool; the message names the file and the OS's reason
)";

}  // namespace

Args parse_args(const std::vector<std::string>& argv) {
  static const std::set<std::string> valued = {"--task", "--kernel", "--device", "--suite", "--workspace",
                                               "--cases", "--warmup", "--reps", "--timeout", "--memory-mb",
                                               "--cxxflags", "--tasks", "--max-attempts", "--limit", "--policy",
                                               "--note",
                                               // kope memory
                                               "--reason", "--by", "--label", "--format", "--out", "--export",
                                               "--feedback", "--target", "--tags", "--incumbent", "--weights",
                                               "--kernels", "--level"};
  static const std::set<std::string> boolean = {"--json", "--help", "-h", "--recheck", "--subtree", "--no-fts",
                                                "--unpin", "--rebuild", "--all", "--library",
                                                "--no-library"};
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string s = argv[i];
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
      if (inline_value) throw UsageError("option " + key + " takes no value");
      a.flags.insert(key);
    } else if (valued.count(key)) {
      if (!inline_value) {
        if (i + 1 >= argv.size()) throw UsageError("option " + key + " needs a value");
        value = argv[++i];
      }
      a.options[key] = value;
    } else {
      throw UsageError("unknown option " + key + " (see kope --help)");
    }
  }
  return a;
}

int int_option(const Args& a, const std::string& key, int fallback, int lo, int hi) {
  auto v = a.get(key);
  if (!v) return fallback;
  try {
    std::size_t used = 0;
    int n = std::stoi(*v, &used);
    if (used == v->size() && n >= lo && n <= hi) return n;
  } catch (const std::exception&) {
  }
  throw UsageError(key + " expects a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                   ", got \"" + *v + "\"");
}

double seconds_option(const Args& a, const std::string& key, double fallback) {
  auto v = a.get(key);
  if (!v) return fallback;
  try {
    std::size_t used = 0;
    double d = std::stod(*v, &used);
    if (used == v->size() && d > 0 && d <= 86400) return d;
  } catch (const std::exception&) {
  }
  throw UsageError(key + " expects a number of seconds above 0, got \"" + *v + "\"");
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

namespace {

// --device SPEC (cpu, cuda, ascend, KIND@[USER@]HOST[:PORT]): a malformed spec or an unknown kind is bad usage
// (exit 2); a device this environment lacks (no toolkit, no board, an unreachable host) is exit 4, with why.
std::string require_device(const Args& a) {
  const std::string spec = a.get("--device").value_or("cpu");
  std::unique_ptr<device::Device> dev;
  try {
    dev = device::make_device(spec);
  } catch (const EnvError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const device::Availability av = dev->availability();
  if (!av.available) throw EnvError("device " + dev->name() + " is not available: " + av.reason);
  return spec;
}

Suite load_suite(const Args& a) {
  if (auto dir = a.get("--suite")) return Suite::from_dir(*dir);
  return Suite::embedded();
}

// The suite at --level; without it, `fallback` ("1": the embedded suite's main job stays on L1; "all").
Suite load_suite_at_level(const Args& a, const std::string& fallback) {
  Suite s = load_suite(a);
  std::vector<int> levels;
  try {
    levels = parse_levels(a.get("--level").value_or(a.get("--suite") ? "all" : fallback));
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  return s.at_levels(levels);
}

EvalOptions eval_options(const Args& a) {
  EvalOptions o;
  o.warmup = int_option(a, "--warmup", o.warmup, 0, 1000);
  o.reps = int_option(a, "--reps", o.reps, 1, 10000);
  o.case_timeout_seconds = seconds_option(a, "--timeout", o.case_timeout_seconds);
  o.memory_bytes = static_cast<uint64_t>(int_option(a, "--memory-mb", static_cast<int>(o.memory_bytes >> 20), 64,
                                                    1 << 20)) << 20;
  if (auto c = a.get("--cases")) o.cases = split_list(*c);
  if (auto f = a.get("--cxxflags")) o.cxxflags = split_list(*f, ' ');
  o.library = !a.has("--no-library");  // issue 11: speedups against the library baseline by default
  return o;
}

fs::path workspace_dir(const Args& a) {
  return a.get("--workspace") ? Workspace::absolute_dir(*a.get("--workspace")) : Workspace::default_dir();
}

// One formatting for the CLI and the window (kope/format.h).
std::string fmt_ns(std::optional<double> ns) { return format::duration_ns(ns); }
std::string fmt_x(std::optional<double> v) { return format::speedup(v); }

std::string fmt_bits(double b) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << b;
  return o.str();
}

std::string fmt_ulps(double u) {
  if (!std::isfinite(u)) return "inf";
  std::ostringstream o;
  o << std::setprecision(u < 1e6 ? 7 : 3) << u;
  return o.str();
}

// A case's accuracy reached (issue 16): the fewest bits and the most ulps over its floating outputs on the
// correctness call, then over its timed calls ("24.0 (0) 23.9"); "-" where there is none.
std::string accuracy_text(const CaseResult& c) {
  double bits = -1, ulps = 0, timed = -1;
  for (const auto& o : c.outputs)
    if (o.bits >= 0) {
      bits = bits < 0 ? o.bits : std::min(bits, o.bits);
      ulps = std::max(ulps, o.max_ulps);
    }
  for (const auto& o : c.timed_worst)
    if (o.bits >= 0) timed = timed < 0 ? o.bits : std::min(timed, o.bits);
  if (bits < 0) return "-";
  return fmt_bits(bits) + " (" + fmt_ulps(ulps) + ")" + (timed >= 0 ? " " + fmt_bits(timed) : std::string());
}
std::string fmt_sci(double v) { return format::sci(v); }

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

json task_summary_json(const Task& t) {
  json ins = json::array(), outs = json::array(), cases = json::array();
  auto spec = [](const TensorSpec& s) {
    json j = {{"name", s.name}, {"dtype", dtype_name(s.dtype)}, {"shape", s.shape}};
    if (!s.count.empty()) j["count"] = s.count;
    return j;
  };
  for (const auto& s : t.inputs) ins.push_back(spec(s));
  for (const auto& s : t.outputs) outs.push_back(spec(s));
  for (const auto& c : t.cases) cases.push_back(c.name);
  return {{"name", t.name}, {"level", t.level}, {"summary", t.summary}, {"origin", t.origin}, {"digest", t.digest},
          {"inputs", ins}, {"outputs", outs}, {"attrs", t.attrs}, {"cases", cases},
          {"candidates", embedded_candidates(t.name).size()}};
}

int cmd_suite(const Args& a, std::ostream& out) {
  if (a.positional.size() < 2) throw UsageError("usage: kope suite list|show TASK");
  const std::string& sub = a.positional[1];
  Suite suite = sub == "list" ? load_suite_at_level(a, "all") : load_suite(a);
  if (sub == "list") {
    if (a.has("--json")) {
      json arr = json::array();
      for (const Task& t : suite.tasks()) arr.push_back(task_summary_json(t));
      out << dump_json(json{{"suite", suite.origin()}, {"tasks", arr}}, 2) << "\n";
      return kExitOk;
    }
    out << std::left << std::setw(26) << "task" << std::setw(7) << "level" << std::setw(7) << "cases" << "summary\n";
    for (const Task& t : suite.tasks())
      out << std::left << std::setw(26) << t.name << std::setw(7) << ("L" + std::to_string(t.level)) << std::setw(7)
          << t.cases.size() << t.summary << "\n";
    out << suite.tasks().size() << " tasks (" << suite.origin() << ")\n";
    return kExitOk;
  }
  if (sub == "show") {
    if (a.positional.size() < 3) throw UsageError("usage: kope suite show TASK");
    Task t = resolve_task(a.positional[2], suite);
    json j = task_summary_json(t);
    json cases = json::array();
    for (const Case& c : t.cases) {
      ConcreteCase cc = resolve_case(t, c);
      json ins = json::array(), outs = json::array();
      for (const auto& x : cc.inputs) ins.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
      for (const auto& x : cc.outputs) outs.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
      json attrs = json::object();
      for (const auto& [k, v] : cc.attrs) attrs[k] = v;
      cases.push_back({{"name", cc.name}, {"seed", cc.seed}, {"inputs", ins}, {"outputs", outs}, {"attrs", attrs},
                       {"memory_bound", case_is_memory_bound(t, c.name)}});
    }
    j["cases"] = cases;
    j["reference"] = t.reference;
    json lib = json::object();
    for (const auto& [dev, impl] : t.library)
      lib[dev] = impl ? json{{"source", impl->source}, {"link", impl->link}, {"include_dirs", impl->include_dirs},
                             {"threads", impl->threads}}
                      : json(nullptr);
    j["library"] = lib;
    if (!t.library_why.empty()) j["library_why"] = t.library_why;
    if (a.has("--json")) {
      out << dump_json(j, 2) << "\n";
      return kExitOk;
    }
    out << t.name << " (L" << t.level << ", " << t.origin << ")\n" << t.summary << "\n\n";
    for (const auto& c : j["cases"]) {
      out << "case " << c["name"].get<std::string>() << ":";
      for (const auto& x : c["inputs"]) out << " " << x["name"].get<std::string>() << shape_text(x["shape"].get<std::vector<int64_t>>());
      out << " ->";
      for (const auto& x : c["outputs"]) out << " " << x["name"].get<std::string>() << shape_text(x["shape"].get<std::vector<int64_t>>());
      if (!c["attrs"].empty()) out << "  " << c["attrs"].dump();
      out << "\n";
    }
    out << "\nreference:\n" << t.reference;
    return kExitOk;
  }
  throw UsageError("unknown suite command \"" + sub + "\" (list, show)");
}

void print_report(const EvalReport& rep, std::ostream& out) {
  out << rep.task << "  kernel " << rep.kernel_name << "  sha256 " << rep.kernel_sha256.substr(0, 12) << "  device "
      << rep.device << "\n";
  if (!rep.compiled) {
    out << "compile: FAILED: " << rep.compile.error << "\n";
    if (!rep.compile.log.empty()) out << rep.compile.log << (rep.compile.log.back() == '\n' ? "" : "\n");
    out << "result: compile_error\n";
    return;
  }
  out << "compile: ok" << (rep.compile.cached ? " (cached)" : " (" + fmt_sci(rep.compile.seconds) + " s)") << "\n";
  // Speedup against the library baseline when it ran (issue 11), the naive baseline as the second column;
  // the library's own check against the golden in its own column ("wrong" is shown, not hidden).
  const bool any_library = std::any_of(rep.cases.begin(), rep.cases.end(), [](const CaseResult& c) {
    return c.library_ran || !c.library_message.empty();
  });
  out << std::left << std::setw(16) << "case" << std::setw(16) << "status" << std::setw(13) << "max rel err"
      << std::setw(20) << "bits (ulp) timed";
  if (any_library) out << std::setw(12) << "library" << std::setw(12) << "lib check";
  out << std::setw(12) << "naive" << std::setw(12) << "kernel" << std::setw(10)
      << (any_library ? "vs lib" : "speedup");
  if (any_library) out << std::setw(10) << "vs naive";
  out << "95% interval\n";
  for (const CaseResult& c : rep.cases) {
    double max_rel = 0;
    for (const auto& o : c.outputs) max_rel = std::max(max_rel, o.max_rel);
    out << std::left << std::setw(16) << c.name << std::setw(16) << case_status_name(c.status) << std::setw(13)
        << (c.outputs.empty() ? "-" : fmt_sci(max_rel)) << std::setw(20) << accuracy_text(c);
    if (any_library) {
      double lib_rel = 0;
      for (const auto& o : c.library_outputs) lib_rel = std::max(lib_rel, o.max_rel);
      out << std::setw(12) << fmt_ns(c.library_median_ns) << std::setw(12)
          << (!c.library_correct ? std::string("-") : *c.library_correct ? "ok" : "WRONG " + fmt_sci(lib_rel));
    }
    const std::optional<double> naive = c.naive_median_ns ? c.naive_median_ns : c.baseline_median_ns;
    out << std::setw(12) << fmt_ns(naive) << std::setw(12) << fmt_ns(c.kernel_median_ns) << std::setw(10)
        << (any_library && c.baseline != "library" ? std::string("-") : fmt_x(c.speedup));
    if (any_library) out << std::setw(10) << fmt_x(c.speedup_vs_naive ? c.speedup_vs_naive : c.speedup);
    out << (c.speedup_interval ? "[" + fmt_x(c.speedup_interval->first) + " .. " + fmt_x(c.speedup_interval->second) + "]"
                               : std::string()) << "\n";
    if (!c.correct()) out << "    " << c.message << "\n";
    if (c.correct() && c.evidence.is_object() && !c.evidence.value("confirmed", true))
      out << "    flagged once and not confirmed by a re-run in a fresh worker (kept as evidence): "
          << c.evidence.value("message", std::string()) << "\n";
  }
  for (const auto& w : rep.warnings) out << "warning: " << w << "\n";
  out << "result: " << rep.status();
  if (auto s = rep.speedup()) {
    out << ", speedup " << fmt_x(s) << " against the " << rep.baseline() << " baseline (geometric mean over "
        << rep.cases.size() << " cases";
    if (auto ci = task_speedup_interval(rep.cases)) out << ", 95% interval " << fmt_x(ci->low) << " .. " << fmt_x(ci->high);
    out << ")";
    if (rep.baseline() != "naive")
      if (auto n = rep.speedup_vs_naive()) out << "; " << fmt_x(n) << " against the naive baseline";
  }
  if (auto lc = rep.library_correct(); lc && !*lc) out << "; the library baseline itself misses the golden";
  if (auto bits = rep.accuracy_bits()) {
    out << "; accuracy " << fmt_bits(*bits) << " bits (max " << fmt_ulps(rep.accuracy_max_ulps().value_or(0)) << " ulp)";
    if (auto tb = rep.timed_accuracy_bits())
      out << ", timed calls " << fmt_bits(*tb) << " bits (max " << fmt_ulps(rep.timed_accuracy_max_ulps().value_or(0))
          << " ulp against the baseline)";
  }
  out << "\n";
}

std::string joined_command(const std::vector<std::string>& args) {
  std::string s = "kope";
  for (const auto& x : args) s += " " + x;
  return s;
}

int cmd_eval(const Args& a, const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  const std::string device = require_device(a);
  auto task_name = a.get("--task");
  auto kernel_path = a.get("--kernel");
  if (!task_name || (!kernel_path == !a.has("--library")))
    throw UsageError("usage: kope eval --task TASK (--kernel FILE | --library) [--device cpu|cuda|ascend|KIND@HOST] [--json]");
  Suite suite = load_suite(a);
  Task task = resolve_task(*task_name, suite);
  EvalOptions opt = eval_options(a);
  std::string source;
  if (a.has("--library")) {  // the library implementation, judged as a candidate
    const LibraryImpl* lib = library_for(task, "cpu");
    if (!lib)
      throw Error("task '" + task.name + "' names no library implementation for the cpu" +
                  (task.library_why.empty() ? std::string() : ": " + task.library_why));
    source = lib->source;
    kernel_path = task.name + ".library.cpp";
    opt.cxxflags = library_candidate_flags(*lib);
    opt.library = false;  // judged as the candidate, not also timed as the baseline
  } else {
    std::error_code ec;
    if (!fs::is_regular_file(*kernel_path, ec)) throw Error("kernel file '" + *kernel_path + "' does not exist or is not a file");
    source = read_file(*kernel_path, "kernel file");
  }
  if (source.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("kernel file '" + *kernel_path + "' is empty");
  opt.device = device;
  Workspace ws = Workspace::open(workspace_dir(a));
  Evaluator ev(EvalPaths::under(ws.dir()));
  const Recorded rec = evaluate_in_new_run(
      ws, ev, joined_command(raw), task,
      {source, *kernel_path, a.has("--library") ? "library:" + task.name : fs::absolute(*kernel_path).string(),
       a.has("--library") ? "the library baseline" : thought_of(source)},
      device, opt);
  const EvalReport& rep = rec.report;
  const int64_t eval_id = rec.evaluation_id;
  if (a.has("--json")) {
    json j = rep.to_json();
    j["evaluation_id"] = eval_id;
    j["workspace"] = ws.dir().string();
    // The task-level interval: the bootstrap of the geometric mean over cases (what promotion is decided on).
    auto ci = rep.correct() ? task_speedup_interval(rep.cases) : std::nullopt;
    j["speedup_ci95"] = ci ? json::array({ci->low, ci->high}) : json(nullptr);
    out << dump_json(j, 2) << "\n";
  } else {
    print_report(rep, out);
    err << "recorded as evaluation " << eval_id << " in " << ws.dir().string() << "\n";
  }
  return rep.correct() ? kExitOk : kExitKernelFailed;
}

// Each task's incumbent on `device` (its stored report), summarised; a task without one counts as unsolved.
SuiteSummary incumbent_summary(const Workspace& ws, const Suite& suite, const std::vector<std::string>& names,
                               const std::string& device) {
  std::vector<TaskRecord> records;
  for (const std::string& name : names) {
    const Task* t = suite.find(name);
    if (!t) continue;
    TaskRecord r;
    r.task = t->name;
    r.level = t->level;
    if (auto inc = ws.incumbent(t->name, device))
      if (auto row = ws.evaluation(inc->evaluation_id)) {
        json j = json::parse(row->report, nullptr, false);
        if (!j.is_discarded()) {
          r = task_record(*t, j);
          r.kernel = row->kernel_origin;
        }
      }
    records.push_back(std::move(r));
  }
  return summarize_suite(records);
}

int cmd_run(const Args& a, const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  const std::string device = require_device(a);
  std::string policy_name = a.get("--policy").value_or("offline");
  if (policy_name != "offline")
    throw UsageError("policy \"" + policy_name + "\" is not available in this build (policies: offline, llm)");
  OfflinePolicy policy = a.get("--kernels") ? OfflinePolicy(*a.get("--kernels")) : OfflinePolicy();
  Suite suite = a.get("--tasks") ? load_suite(a) : load_suite_at_level(a, "1");
  LoopOptions lo;
  lo.eval = eval_options(a);
  lo.eval.device = lo.device = device;
  lo.max_attempts = int_option(a, "--max-attempts", lo.max_attempts, 1, 1000);
  if (auto t = a.get("--tasks")) lo.tasks = split_list(*t);
  lo.recheck = a.has("--recheck");
  for (const auto& name : lo.tasks) suite.require(name);  // before anything is recorded
  Workspace ws = Workspace::open(workspace_dir(a));
  Evaluator ev(EvalPaths::under(ws.dir()));
  // Signals steer the run: SIGINT/SIGTERM stop now, SIGTSTP/SIGUSR1 pause after the attempt, SIGCONT/SIGUSR2 resume.
  lo.control = std::make_shared<RunControl>();
  lo.eval.cancel = lo.control->cancel_token();
  lo.control->on_act = [&err](const SteeringAct& s) { err << "-- " << s.act << (s.detail.empty() ? "" : " " + s.detail) << "\n"; };
  lo.control->on_phase = [&err](const std::string& task, const std::string& phase) {
    if (phase == "paused") err << "-- paused before the next attempt on " << task << " (SIGCONT or SIGUSR2 resumes)\n";
  };
  SignalSteering signals(*lo.control);
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, policy, lo, joined_command(raw), [&](const LoopEvent& e) {
    if (e.skipped) {
      err << "   skipped " << e.skipped->name << ": " << e.skipped->reason << "\n";
      return;
    }
    if (!e.attempt) {
      err << "== " << e.task << "\n";
      return;
    }
    err << "   " << std::left << std::setw(52) << e.attempt->name + " " << std::setw(16) << e.attempt->status + " "
        << std::setw(9) << fmt_x(e.attempt->speedup)
        << (e.attempt->promoted ? "promoted"
                                : e.attempt->needs_review
                                      ? "needs review (faster than the hardware floor): kope review approve " +
                                            std::to_string(e.attempt->evaluation_id)
                                      : "")
        << "\n";
    if (e.attempt->status == "error") err << "      " << e.attempt->message << "\n";
  });
  const int64_t run = lr.run_id;
  const std::vector<TaskOutcome>& outcomes = lr.outcomes;
  bool any_error = false, any_internal = false;
  for (const auto& o : outcomes) {
    any_error = any_error || !o.error.empty();
    any_internal = any_internal || o.internal_error;
  }
  std::vector<std::string> names;
  for (const auto& o : outcomes) names.push_back(o.task);
  const SuiteSummary summary = incumbent_summary(ws, suite, names, lo.device);
  if (a.has("--json")) {
    out << dump_json(json{{"run_id", run}, {"workspace", ws.dir().string()}, {"policy", policy.name()},
                          {"tasks", to_json(outcomes)}, {"summary", to_json(summary)}}, 2) << "\n";
  } else {
    out << std::left << std::setw(26) << "task" << std::setw(7) << "level" << std::setw(10) << "attempts"
        << std::setw(18) << "speedup" << "incumbent\n";
    for (const auto& o : outcomes) {
      const Task* t = suite.find(o.task);
      out << std::left << std::setw(26) << o.task << std::setw(7) << (t ? "L" + std::to_string(t->level) : "-")
          << std::setw(10) << o.attempts.size() << std::setw(18)
          << fmt_x(o.incumbent_speedup) + " vs " + o.incumbent_baseline << o.incumbent_name << "\n";
      if (!o.error.empty()) out << "    error: " << o.error << "\n";
    }
    out << "\n";
    print_suite_summary(summary, out);
    out << "run " << run << (lo.control->stopped() ? " stopped and" : "") << " recorded in " << ws.dir().string() << "\n";
  }
  // A task that cannot be evaluated is bad input; kope's own failure on some attempt is an internal error.
  return any_internal ? kExitInternal : any_error ? kExitBadInput : kExitOk;
}

int cmd_report(const Args& a, std::ostream& out) {
  Suite suite = load_suite_at_level(a, "all");
  Workspace ws = Workspace::open(workspace_dir(a));
  std::vector<std::string> names;
  for (const Task& t : suite.tasks()) names.push_back(t.name);
  const SuiteSummary s = incumbent_summary(ws, suite, names, a.get("--device").value_or("cpu"));
  if (a.has("--json")) out << to_json(s).dump(2) << "\n";
  else print_suite_summary(s, out);
  return kExitOk;
}

int cmd_history(const Args& a, std::ostream& out) {
  Workspace ws = Workspace::open(workspace_dir(a));
  int limit = int_option(a, "--limit", 20, 1, 1000000);
  auto rows = ws.evaluations(a.get("--task"), limit);
  if (a.has("--json")) {
    json arr = json::array();
    for (const auto& r : rows)
      arr.push_back({{"id", r.id}, {"run_id", r.run_id}, {"task", r.task}, {"device", r.device}, {"status", r.status},
                     {"compiled", r.compiled ? json(*r.compiled) : json(nullptr)},
                     {"correct", r.correct ? json(*r.correct) : json(nullptr)},
                     {"speedup", r.speedup ? json(*r.speedup) : json(nullptr)}, {"kernel", r.kernel_origin},
                     {"kernel_sha256", r.kernel_sha256}, {"started_at", r.started_at}, {"finished_at", r.finished_at},
                     {"prev_evaluation_id", r.prev_evaluation_id ? json(*r.prev_evaluation_id) : json(nullptr)}});
    out << dump_json(arr, 2) << "\n";
    return kExitOk;
  }
  out << std::left << std::setw(7) << "id" << std::setw(26) << "task" << std::setw(16) << "status" << std::setw(10)
      << "speedup" << std::setw(26) << "started" << "kernel\n";
  for (const auto& r : rows)
    out << std::left << std::setw(7) << r.id << std::setw(26) << r.task << std::setw(16) << r.status << std::setw(10)
        << fmt_x(r.speedup) << std::setw(26) << r.started_at << r.kernel_origin << "\n";
  return kExitOk;
}

int cmd_show(const Args& a, std::ostream& out) {
  if (a.positional.size() < 2) throw UsageError("usage: kope show EVALUATION_ID");
  int64_t id = 0;
  try {
    std::size_t used = 0;
    id = std::stoll(a.positional[1], &used);
    if (used != a.positional[1].size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw UsageError("evaluation id must be a number, got \"" + a.positional[1] + "\"");
  }
  Workspace ws = Workspace::open(workspace_dir(a));
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in workspace " + ws.dir().string());
  json j = json::parse(row->report, nullptr, false);
  if (j.is_discarded()) j = {{"status", row->status}, {"error", row->report}};
  j["evaluation_id"] = row->id;
  j["recorded_status"] = row->status;
  if (!row->review.empty())
    j["review"] = {{"state", row->review}, {"note", row->review_note}, {"at", row->reviewed_at}};
  out << dump_json(j, 2) << "\n";
  return kExitOk;
}

}  // namespace

namespace {
int run_cli_escaped(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err);
}  // namespace

// The output boundary: whatever a command prints (a compiler's message, a kernel's log, a model's thought, an
// imported record, a task file's text) reaches the terminal through escape_terminal, whichever command prints it.
int run_cli(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  TerminalSafeStream safe_out(out), safe_err(err);
  return run_cli_escaped(raw, safe_out, safe_err);
}

namespace {
int run_cli_escaped(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  try {
    if (g_extension)
      if (std::optional<int> rc = g_extension(raw, out, err)) return *rc;
    Args a = parse_args(raw);
    if (a.positional.empty() || a.has("--help") || a.has("-h") || a.positional[0] == "help") {
      (a.positional.empty() && !a.has("--help") && !a.has("-h") ? err : out) << kUsage;
      return a.positional.empty() && !a.has("--help") && !a.has("-h") ? kExitBadInput : kExitOk;
    }
    const std::string& cmd = a.positional[0];
    if (cmd == "version") {
      out << version_string() << "\n";
      return kExitOk;
    }
    if (cmd == "doctor") return cli_doctor(a.has("--json"), out, err);
    if (cmd == "devices") return cli_devices(a.get("--device").value_or(""), a.has("--json"), out, err);
    if (cmd == "suite") return cmd_suite(a, out);
    if (cmd == "eval") return cmd_eval(a, raw, out, err);
    if (cmd == "run") return cmd_run(a, raw, out, err);
    if (cmd == "history") return cmd_history(a, out);
    if (cmd == "report") return cmd_report(a, out);
    if (cmd == "show") return cmd_show(a, out);
    if (cmd == "review") return run_review_cli(a.positional, a.get("--note"), a.has("--all"), a.has("--json"), workspace_dir(a), out);
    if (cmd == "compare") return cmd_compare(a.positional, a.has("--json"), workspace_dir(a), out);
    if (cmd == "memory") return cmd_memory(a, out, err);
    throw UsageError("unknown command \"" + cmd + "\" (see kope --help)");
  } catch (const UsageError& e) {
    err << "kope: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const EnvError& e) {
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitEnvironment;
  } catch (const fs::filesystem_error& e) {  // the OS refused a file operation; the message names the paths
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitEnvironment;
  } catch (const Error& e) {
    err << "kope: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "kope: internal error: " << escape_invalid_utf8(e.what()) << "\n";
    return kExitInternal;
  }
}
}  // namespace

}  // namespace kope

#include "kope/study/study.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/eval/suite_report.h"
#include "kope/memory/memory.h"
#include "kope/memory/share.h"
#include "kope/workspace/workspace.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace kope::study {

std::string Arm::name() const {
  std::string n(agent::arm_name(memory));
  if (memory != agent::MemoryArm::Off && devices != memory::RetrieveOptions::Devices::Both)
    n += std::string(":") + memory::device_memory_name(devices);
  return n;
}

std::vector<Arm> parse_arms(const std::string& text) {
  std::vector<Arm> arms;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t colon = item.find(':');
    const auto memory = agent::arm_from_name(item.substr(0, colon));
    if (!memory)
      throw Error("arm \"" + item + "\": expected off, dump or active, optionally with :local, :foreign or :both");
    Arm a;
    a.memory = *memory;
    if (colon != std::string::npos) {
      const auto devices = memory::device_memory_from_name(item.substr(colon + 1));
      if (!devices) throw Error("arm \"" + item + "\": the memory after ':' must be local, foreign or both");
      if (a.memory == agent::MemoryArm::Off) throw Error("arm \"" + item + "\": memory off reads no memory at all");
      a.devices = *devices;
    }
    if (!seen.insert(a.name()).second) throw Error("arm \"" + item + "\" is named twice");
    arms.push_back(a);
  }
  return arms;
}

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The tasks of each level, in the suite's order, restricted to `only` when it names any.
std::map<int, std::vector<std::string>> tasks_by_level(const Suite& suite, const StudyOptions& o) {
  for (const std::string& name : o.tasks) suite.require(name);
  std::map<int, std::vector<std::string>> out;
  for (int level : o.levels) {
    std::vector<std::string>& names = out[level];
    for (const Task& t : suite.tasks())
      if (t.level == level && (o.tasks.empty() || std::find(o.tasks.begin(), o.tasks.end(), t.name) != o.tasks.end()))
        names.push_back(t.name);
    if (names.empty()) throw Error("level " + std::to_string(level) + " has no task to study in " + suite.origin());
  }
  return out;
}

// The cases a task is judged on in this study (all, or the non-large ones under skip_large).
int judged_cases(const Task& t, const EvalOptions& eo) {
  int n = 0;
  for (const Case& c : t.cases) n += (!eo.cases.empty() ? std::count(eo.cases.begin(), eo.cases.end(), c.name) > 0
                                                        : !(eo.skip_large && c.large));
  return n;
}

// The record of the kernel the arm ended with: the incumbent's evaluation, else the attempt with the most
// correct cases (a compiled one before one that did not build); a task never evaluated fails every case.
eval::TaskRecord final_record(const workspace::Workspace& ws, const Task& task, const loop::TaskOutcome& o,
                              const std::string& device, const EvalOptions& eo) {
  auto record_of = [&](int64_t evaluation) -> std::optional<eval::TaskRecord> {
    auto row = ws.evaluation(evaluation);
    if (!row) return std::nullopt;
    const json j = json::parse(row->report, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    eval::TaskRecord r = eval::task_record(task, j);
    r.kernel = row->kernel_origin;
    return r;
  };
  if (auto inc = ws.incumbent(task.name, device))
    if (auto r = record_of(inc->evaluation_id)) return *r;
  std::optional<eval::TaskRecord> best;
  auto rank = [](const eval::TaskRecord& r) {
    int ok = 0;
    for (const auto& c : r.cases) ok += c.correct ? 1 : 0;
    return std::make_pair(ok, r.compiled ? 1 : 0);
  };
  for (const loop::Attempt& a : o.attempts)
    if (a.evaluation_id > 0)
      if (auto r = record_of(a.evaluation_id); r && (!best || rank(*r) > rank(*best))) best = std::move(r);
  if (best) return *best;
  eval::TaskRecord none;
  none.task = task.name;
  none.level = task.level;
  for (int i = judged_cases(task, eo); i > 0; --i) none.cases.push_back({});
  return none;
}

LevelRow level_row(const std::string& arm, int level, const std::vector<eval::TaskRecord>& records,
                   const std::vector<loop::TaskOutcome>& outcomes, double wall) {
  const eval::SuiteSummary s = eval::summarize_suite(records);
  LevelRow row;
  row.arm = arm;
  row.level = level;
  row.operators = static_cast<int>(records.size());
  row.correct = s.tasks_correct;
  row.cases = s.cases;
  row.cases_correct = s.cases_correct;
  row.pass_rate = s.pass_rate;
  row.fast_1 = s.fast_1;
  row.fast_1_against = s.fast_1_against;
  row.score = s.score;
  row.wall_seconds = wall;
  double log_sum = 0;
  int n = 0;
  for (const eval::TaskSummary& t : s.tasks) {
    row.compiled += t.compiled ? 1 : 0;
    const std::optional<double> sp = t.library_speedup ? t.library_speedup : t.speedup;
    if (t.correct && sp && *sp > 0) {
      log_sum += std::log(*sp);
      ++n;
    }
  }
  if (n > 0) row.geomean_speedup = std::exp(log_sum / n);
  for (const loop::TaskOutcome& o : outcomes) {
    row.attempts += static_cast<int>(o.attempts.size());
    for (const loop::Attempt& a : o.attempts) row.tokens += a.tokens;
  }
  return row;
}

TaskRow task_row(const std::string& arm, const eval::TaskRecord& rec, const loop::TaskOutcome& o) {
  const eval::TaskSummary s = eval::summarize_task(rec);
  TaskRow t;
  t.arm = arm;
  t.task = rec.task;
  t.level = rec.level;
  t.kernel = rec.kernel;
  t.compiled = s.compiled;
  t.correct = s.correct;
  t.cases = s.cases;
  t.cases_correct = s.cases_correct;
  t.speedup = s.library_speedup ? s.library_speedup : s.speedup;
  t.against = s.library_speedup ? "library" : "naive";
  t.score = s.score;
  t.attempts = static_cast<int>(o.attempts.size());
  for (const loop::Attempt& a : o.attempts) t.tokens += a.tokens;
  t.error = o.error;
  return t;
}

}  // namespace

StudyReport run_study(const Suite& suite, const StudyOptions& options,
                      const std::function<void(const StudyEvent&)>& progress) {
  if (options.arms.empty()) throw Error("a study needs at least one arm");
  if (options.levels.empty()) throw Error("a study needs at least one level");
  const std::map<int, std::vector<std::string>> by_level = tasks_by_level(suite, options);
  if (options.seed_memory && !fs::is_regular_file(*options.seed_memory))
    throw Error("the seed memory '" + options.seed_memory->string() + "' is not a readable file");

  StudyReport report;
  report.policy = options.policy.policy;
  report.device = options.loop.device;
  report.started = utc_now();
  report.levels = options.levels;
  for (const Arm& a : options.arms) report.arms.push_back(a.name());
  // One evaluator for every arm: goldens and builds are facts of the task and the kernel, not of a memory.
  eval::Evaluator ev(exec::EvalPaths::under(options.dir / "eval"));
  // Made before the first arm, so that no arm's wall time pays for the goldens and baselines the others reuse.
  std::vector<const Task*> all;
  for (const auto& [level, names] : by_level)
    for (const std::string& name : names) all.push_back(&suite.require(name));
  ev.prepare(all, options.loop.eval);
  for (const Arm& arm : options.arms) {
    workspace::Workspace ws = workspace::Workspace::open(options.dir / "arms" / arm.name());
    if (options.seed_memory) {
      memory::MemoryStore store(ws.handle());
      memory::import_jsonl(store, *options.seed_memory);
    }
    agent::PolicyChoice choice = options.policy;
    choice.context.arm = arm.memory;
    const loop::PolicyFactory policies = [&choice](workspace::Workspace& w) { return agent::make_policy(choice, w); };
    loop::LoopOptions lo = options.loop;
    lo.retrieve.devices = arm.devices;
    // Memory off: nothing from the memory, not even its word that a kernel failed here before.
    if (arm.memory == agent::MemoryArm::Off) lo.recheck = true;
    for (const auto& [level, names] : by_level) {
      if (options.loop.cancel && options.loop.cancel->load()) report.stopped = true;
      if (report.stopped) break;
      if (progress) progress({arm.name(), level, nullptr});
      lo.tasks = names;
      const auto t0 = std::chrono::steady_clock::now();
      const loop::LoopRun run = loop::run_loop_in_new_run(
          ws, ev, suite, policies, lo, options.command + " [arm " + arm.name() + ", L" + std::to_string(level) + "]",
          [&](const loop::LoopEvent& e) {
            if (progress) progress({arm.name(), level, &e});
          });
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::vector<eval::TaskRecord> records;
      for (const loop::TaskOutcome& o : run.outcomes) {
        records.push_back(final_record(ws, suite.require(o.task), o, lo.device, lo.eval));
        report.tasks.push_back(task_row(arm.name(), records.back(), o));
      }
      report.rows.push_back(level_row(arm.name(), level, records, run.outcomes, wall));
      if (lo.control && lo.control->stopped()) report.stopped = true;
    }
  }
  report.finished = utc_now();
  return report;
}

}  // namespace kope::study

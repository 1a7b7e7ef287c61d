#include "kope/eval/suite_report.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/model/dtype.h"

namespace kope::eval {

using nlohmann::json;

namespace {

}  // namespace

bool case_is_memory_bound(const Task& task, const std::string& case_name) {
  bool any_marked = false;
  for (const Case& c : task.cases) any_marked = any_marked || c.memory_bound;
  const Case* c = find_case(task, case_name);
  if (!c) return false;
  if (any_marked) return c->memory_bound;
  const ConcreteCase cc = resolve_case(task, *c);
  double bytes = 0;
  for (const auto* list : {&cc.inputs, &cc.outputs})
    for (const auto& t : *list) bytes += static_cast<double>(t.numel) * static_cast<double>(dtype_size(t.dtype));
  return bytes >= kMemoryBoundBytes;
}

namespace {

std::optional<double> number_or_null(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<double> geomean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double s = 0;
  for (double x : v) {
    if (!(x > 0)) return std::nullopt;
    s += std::log(x);
  }
  return std::exp(s / static_cast<double>(v.size()));
}

}  // namespace

TaskRecord task_record(const Task& task, const EvalReport& rep) {
  TaskRecord r;
  r.task = task.name;
  r.level = task.level;
  r.kernel = rep.kernel_name;
  r.evaluated = true;
  r.compiled = rep.compiled;
  for (const CaseResult& c : rep.cases)
    r.cases.push_back({c.name, c.correct(), case_is_memory_bound(task, c.name), c.speedup, c.hap});
  // Measured against the library on every case (issue 11): fast_1 is against the library.
  if (rep.baseline() == "library") r.library_speedup = rep.speedup();
  return r;
}

TaskRecord task_record(const Task& task, const json& rep) {
  TaskRecord r;
  r.task = task.name;
  r.level = task.level;
  r.evaluated = true;
  if (auto k = rep.find("kernel"); k != rep.end() && k->is_object()) r.kernel = k->value("name", "");
  r.compiled = rep.value("compiled", false);
  if (auto cs = rep.find("cases"); cs != rep.end() && cs->is_array())
    for (const json& c : *cs) {
      const std::string name = c.value("name", "");
      r.cases.push_back({name, c.value("correct", false), case_is_memory_bound(task, name), number_or_null(c, "speedup"),
                         number_or_null(c, "hap")});
    }
  // Measured against the library on every case (issue 11; older reports have no "baseline": naive).
  if (rep.value("baseline", std::string("naive")) == "library") r.library_speedup = number_or_null(rep, "speedup");
  return r;
}

TaskSummary summarize_task(const TaskRecord& r) {
  TaskSummary s;
  s.task = r.task;
  s.level = r.level;
  s.kernel = r.kernel;
  s.evaluated = r.evaluated;
  s.compiled = r.compiled;
  s.library_speedup = r.library_speedup;
  s.cases = static_cast<int>(r.cases.size());
  std::vector<double> all, mem;
  bool mem_ok = true;
  double sum = 0;
  for (const CaseRecord& c : r.cases) {
    if (c.correct) {
      ++s.cases_correct;
      sum += 0.3 + 0.5 * c.hap.value_or(0.5);
      if (c.speedup) all.push_back(*c.speedup);
    }
    if (c.memory_bound) {
      ++s.memory_bound_cases;
      if (c.correct && c.speedup) mem.push_back(*c.speedup);
      else mem_ok = false;
    }
  }
  s.correct = r.compiled && s.cases > 0 && s.cases_correct == s.cases;
  if (s.correct && all.size() == r.cases.size()) s.speedup = geomean(all);
  if (mem_ok && s.memory_bound_cases > 0) s.memory_bound_speedup = geomean(mem);
  s.score = r.compiled ? 100.0 * (0.2 + (s.cases ? sum / s.cases : 0.0)) : 0.0;
  const std::optional<double> against = s.library_speedup ? s.library_speedup : s.speedup;
  s.fast = s.correct && against && *against > 1.0;
  return s;
}

SuiteSummary summarize_suite(const std::vector<TaskRecord>& records) {
  SuiteSummary out;
  int with_library = 0, fast = 0;
  for (const TaskRecord& r : records) {
    TaskSummary t = summarize_task(r);
    out.score += t.score;
    out.tasks_correct += t.correct ? 1 : 0;
    out.cases += t.cases;
    out.cases_correct += t.cases_correct;
    with_library += t.library_speedup ? 1 : 0;
    fast += t.fast ? 1 : 0;
    out.tasks.push_back(std::move(t));
  }
  out.pass_rate = out.cases ? static_cast<double>(out.cases_correct) / out.cases : 0.0;
  out.fast_1 = records.empty() ? 0.0 : static_cast<double>(fast) / static_cast<double>(records.size());
  out.fast_1_against = with_library == static_cast<int>(records.size()) && with_library > 0 ? "library"
                       : with_library == 0 ? "naive"
                                           : "library where measured, else naive";
  return out;
}

json to_json(const SuiteSummary& s) {
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json tasks = json::array();
  for (const TaskSummary& t : s.tasks)
    tasks.push_back({{"task", t.task}, {"level", t.level}, {"kernel", t.kernel}, {"evaluated", t.evaluated},
                     {"compiled", t.compiled}, {"correct", t.correct}, {"cases", t.cases},
                     {"cases_correct", t.cases_correct}, {"memory_bound_cases", t.memory_bound_cases},
                     {"speedup_geomean", opt(t.speedup)}, {"memory_bound_speedup_geomean", opt(t.memory_bound_speedup)},
                     {"library_speedup", opt(t.library_speedup)}, {"score", t.score}, {"fast", t.fast}});
  return {{"tasks", tasks},           {"score", s.score},         {"tasks_correct", s.tasks_correct},
          {"cases", s.cases},         {"cases_correct", s.cases_correct}, {"pass_rate", s.pass_rate},
          {"fast_1", s.fast_1},       {"fast_1_against", s.fast_1_against}};
}

void print_suite_summary(const SuiteSummary& s, std::ostream& out) {
  auto x = [](const std::optional<double>& v) {
    if (!v) return std::string("-");
    std::ostringstream o;
    o << std::fixed << std::setprecision(2) << *v << "x";
    return o.str();
  };
  out << std::left << std::setw(24) << "task" << std::setw(7) << "level" << std::setw(9) << "cases" << std::setw(10)
      << "geomean" << std::setw(16) << "memory-bound" << std::setw(10) << "library" << std::setw(8) << "score"
      << "kernel\n";
  for (const TaskSummary& t : s.tasks) {
    std::ostringstream cases, mem, score;
    cases << t.cases_correct << "/" << t.cases;
    mem << x(t.memory_bound_speedup) << " (" << t.memory_bound_cases << ")";
    score << std::fixed << std::setprecision(1) << t.score;
    out << std::left << std::setw(24) << t.task << std::setw(7) << ("L" + std::to_string(t.level)) << std::setw(9)
        << (t.evaluated ? cases.str() : "-") << std::setw(10) << x(t.speedup) << std::setw(16) << mem.str()
        << std::setw(10) << x(t.library_speedup) << std::setw(8) << score.str() << (t.evaluated ? t.kernel : "(none)")
        << "\n";
  }
  std::ostringstream line;
  line << std::fixed << std::setprecision(2) << "score " << s.score << " over " << s.tasks.size() << " tasks; "
       << s.tasks_correct << " tasks correct; pass rate " << 100.0 * s.pass_rate << "% (" << s.cases_correct << "/"
       << s.cases << " cases); fast_1 " << s.fast_1 << " (against the " << s.fast_1_against << " baseline)";
  out << line.str() << "\n";
}

}  // namespace kope::eval

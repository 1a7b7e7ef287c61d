#include "suite_checks.h"

#include <map>
#include <vector>

#include "kope/base/error.h"

namespace kope::test {

SuiteShared& suite_shared() {
  static SuiteShared s;
  return s;
}

EvalOptions quick_suite_options(const Task& t, int64_t max_elements, int case_timeout_seconds) {
  EvalOptions o = quick_options();
  o.warmup = 0;
  o.reps = 1;
  o.pool = 1;
  o.case_timeout_seconds = case_timeout_seconds;
  o.memory_bytes = uint64_t{3} << 30;
  for (const Case& c : t.cases) {
    if (c.large) continue;
    const ConcreteCase cc = resolve_case(t, c);
    int64_t n = 0;
    for (const auto* list : {&cc.inputs, &cc.outputs})
      for (const auto& x : *list) n += x.numel;
    if (n <= max_elements) o.cases.push_back(c.name);
  }
  return o;
}

std::string errors_of(const EvalReport& r, bool cases) {
  std::string s;
  for (const auto& e : r.errors) s += "\n  " + e;
  if (cases)
    for (const auto& c : r.cases)
      if (!c.correct()) s += "\n  " + c.name + ": " + c.message;
  return s;
}

const CandidateSource& shipped_kernel(const std::string& task, const std::string& prefix) {
  static std::map<std::string, std::vector<CandidateSource>> cache;
  auto& list = cache[task];
  if (list.empty()) list = embedded_candidates(task);
  for (const auto& c : list)
    if (c.name.rfind(task + "/" + prefix, 0) == 0) return c;
  throw Error("no shipped kernel " + prefix + "* for " + task);
}

}  // namespace kope::test

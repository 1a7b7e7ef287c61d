// An EvalReport as JSON and back, side by side: what the workspace stores and `kope show --json` prints.
#include "kope/model/report.h"

#include <cmath>
#include <limits>

#include "kope/base/error.h"

namespace kope {

using nlohmann::json;

std::optional<CaseStatus> case_status_from_name(std::string_view name) {
  for (CaseStatus s : {CaseStatus::Passed, CaseStatus::Wrong, CaseStatus::Crash, CaseStatus::Timeout,
                       CaseStatus::RuntimeError, CaseStatus::LoadError, CaseStatus::InputsModified,
                       CaseStatus::Background, CaseStatus::Cancelled})
    if (case_status_name(s) == name) return s;
  return std::nullopt;
}

namespace {

// A number as check_json writes it: finite numbers as numbers, the others as "nan", "inf", "-inf".
double num(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  throw Error("report: expected a number, got " + v.dump());
}

template <typename T>
void get(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  try {
    out = it->get<T>();
  } catch (const json::exception& e) {
    throw Error(std::string("report: field \"") + key + "\": " + e.what());
  }
}

std::optional<double> opt(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return num(*it);
}

OutputCheck check_from_json(const json& j) {
  OutputCheck c;
  get(j, "name", c.name);
  get(j, "ok", c.ok);
  if (auto v = opt(j, "mean_rel_err")) c.mean_rel = *v;
  if (auto v = opt(j, "max_rel_err")) c.max_rel = *v;
  if (auto v = opt(j, "threshold")) c.threshold = *v;
  get(j, "worst_index", c.worst_index);
  if (auto v = opt(j, "expected")) c.expected = *v;
  if (auto v = opt(j, "got")) c.got = *v;
  get(j, "mismatches", c.mismatches);
  // Accuracy figures (issue 16); a report from before them reads as "not measured" (-1 bits, 0 ulps).
  if (auto v = opt(j, "bits")) c.bits = *v;
  if (auto v = opt(j, "mean_bits")) c.mean_bits = *v;
  if (auto v = opt(j, "max_ulps")) c.max_ulps = *v;
  get(j, "note", c.note);
  return c;
}

CaseResult case_from_json(const json& j) {
  CaseResult c;
  get(j, "name", c.name);
  std::string status;
  get(j, "status", status);
  // A status this build does not know (a newer one) still reads as a failure.
  c.status = status.empty() ? CaseStatus::Passed : case_status_from_name(status).value_or(CaseStatus::RuntimeError);
  get(j, "message", c.message);
  c.baseline_median_ns = opt(j, "baseline_median_ns");
  c.kernel_median_ns = opt(j, "kernel_median_ns");
  c.speedup = opt(j, "speedup");
  if (auto it = j.find("speedup_ci95"); it != j.end() && it->is_array() && it->size() == 2)
    c.speedup_interval = std::make_pair(num((*it)[0]), num((*it)[1]));
  c.hw_bound_ns = opt(j, "hw_bound_ns");
  c.hap = opt(j, "hap");
  get(j, "network_isolated", c.network_isolated);
  get(j, "network_failure", c.network_failure);
  get(j, "baseline_ns", c.baseline_ns);
  get(j, "kernel_ns", c.kernel_ns);
  if (auto it = j.find("outputs"); it != j.end() && it->is_array())
    for (const auto& o : *it) c.outputs.push_back(check_from_json(o));
  if (auto it = j.find("last_run_outputs"); it != j.end() && it->is_array())
    for (const auto& o : *it) c.last_outputs.push_back(check_from_json(o));
  if (auto it = j.find("baseline_outputs"); it != j.end() && it->is_array())
    for (const auto& o : *it) c.baseline_outputs.push_back(check_from_json(o));
  if (auto it = j.find("timed_worst_outputs"); it != j.end() && it->is_array())
    for (const auto& o : *it) c.timed_worst.push_back(check_from_json(o));
  get(j, "log", c.log);
  get(j, "stop_rule", c.stop_rule);
  get(j, "timed", c.timed);
  get(j, "failed_call", c.failed_call);
  if (auto it = j.find("evidence"); it != j.end() && it->is_object()) c.evidence = *it;
  // The library baseline (issue 11); a report from before it has none and was measured against the naive one.
  get(j, "baseline", c.baseline);
  c.naive_median_ns = opt(j, "naive_median_ns");
  c.speedup_vs_naive = opt(j, "speedup_vs_naive");
  c.hap_vs_naive = opt(j, "hap_vs_naive");
  if (c.baseline == "naive" && !j.contains("speedup_vs_naive")) {
    c.naive_median_ns = c.baseline_median_ns;
    c.speedup_vs_naive = c.speedup;
    c.hap_vs_naive = c.hap;
  }
  c.library_median_ns = opt(j, "library_median_ns");
  get(j, "library_ns", c.library_ns);
  get(j, "library_ran", c.library_ran);
  if (auto it = j.find("library_correct"); it != j.end() && it->is_boolean()) c.library_correct = it->get<bool>();
  get(j, "library_message", c.library_message);
  if (auto it = j.find("library_outputs"); it != j.end() && it->is_array())
    for (const auto& o : *it) c.library_outputs.push_back(check_from_json(o));
  return c;
}

}  // namespace

EvalReport report_from_json(const json& j) {
  if (!j.is_object()) throw Error("report: expected a JSON object");
  EvalReport r;
  get(j, "task", r.task);
  get(j, "task_digest", r.task_digest);
  if (auto it = j.find("kernel"); it != j.end() && it->is_object()) {
    get(*it, "name", r.kernel_name);
    get(*it, "sha256", r.kernel_sha256);
  }
  get(j, "device", r.device);
  if (auto it = j.find("device_fingerprint"); it != j.end() && it->is_object()) r.device_fingerprint = *it;
  get(j, "compiled", r.compiled);
  get(j, "cancelled", r.cancelled);
  if (auto it = j.find("compile"); it != j.end() && it->is_object()) {
    const json& c = *it;
    get(c, "ok", r.compile.ok);
    get(c, "cached", r.compile.cached);
    get(c, "seconds", r.compile.seconds);
    get(c, "command", r.compile.command);
    get(c, "log", r.compile.log);
    if (auto d = c.find("diagnostics"); d != c.end() && d->is_array())
      for (const auto& x : *d) {
        Diagnostic diag;
        get(x, "file", diag.file);
        get(x, "line", diag.line);
        get(x, "column", diag.column);
        get(x, "severity", diag.severity);
        get(x, "message", diag.message);
        r.compile.diagnostics.push_back(diag);
      }
  }
  if (auto it = j.find("cases"); it != j.end() && it->is_array())
    for (const auto& c : *it) r.cases.push_back(case_from_json(c));
  get(j, "errors", r.errors);
  get(j, "warnings", r.warnings);
  // The compile error is not stored on its own: it is the first error of a report that did not compile.
  if (!r.compiled && !r.errors.empty()) r.compile.error = r.errors.front();
  if (auto it = j.find("settings"); it != j.end() && it->is_object()) {
    const json& s = *it;
    get(s, "warmup", r.options.warmup);
    get(s, "reps", r.options.reps);
    get(s, "pool", r.options.pool);
    get(s, "case_timeout_s", r.options.case_timeout_seconds);
    uint64_t mb = r.options.memory_bytes >> 20;
    get(s, "memory_mb", mb);
    r.options.memory_bytes = mb << 20;
    get(s, "cxxflags", r.options.cxxflags);
    get(s, "interleave", r.options.interleave);
    get(s, "library", r.options.library);
    get(s, "skip_large", r.options.skip_large);
    get(s, "max_reps", r.options.max_reps);
    get(s, "ci_rel_width", r.options.ci_rel_width);
    get(s, "case_budget_s", r.options.case_budget_seconds);
    get(s, "flush", r.options.flush);
  }
  if (auto it = j.find("timing"); it != j.end() && it->is_object()) {
    get(*it, "wall_s", r.wall_seconds);
    get(*it, "timed_calls_s", r.timed_call_seconds);
    get(*it, "flush", r.flush_method);
  }
  get(j, "worker_isolation", r.worker_isolation);
  if (auto it = j.find("between_evaluations"); it != j.end() && it->is_object()) {
    BetweenEvaluations b;
    get(*it, "sd_log", b.sd_log);
    get(*it, "dof", b.dof);
    get(*it, "evaluations", b.evaluations);
    get(*it, "tasks", b.tasks);
    if (std::isfinite(b.sd_log) && b.sd_log >= 0 && b.dof >= 0) r.between = b;
  }
  return r;
}


// ---- The writer, beside the reader above: to_json(report_from_json(j)) == j for every j it wrote.

namespace {

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json check_json(const OutputCheck& c) {
  auto num = [](double v) { return std::isfinite(v) ? json(v) : json(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf")); };
  json j = {{"name", c.name}, {"ok", c.ok}, {"mean_rel_err", num(c.mean_rel)}, {"max_rel_err", num(c.max_rel)},
            {"threshold", c.threshold}, {"worst_index", c.worst_index}, {"expected", num(c.expected)},
            {"got", num(c.got)}, {"mismatches", c.mismatches},
            {"bits", c.bits >= 0 ? json(c.bits) : json(nullptr)},
            {"mean_bits", c.mean_bits >= 0 ? json(c.mean_bits) : json(nullptr)}, {"max_ulps", num(c.max_ulps)}};
  if (!c.note.empty()) j["note"] = c.note;  // index outputs: why the first wrong index is wrong
  return j;
}

}  // namespace

json EvalReport::to_json() const {
  json j;
  j["task"] = task;
  j["task_digest"] = task_digest;
  j["kernel"] = {{"name", kernel_name}, {"sha256", kernel_sha256}};
  j["device"] = device;
  if (!device_fingerprint.is_null()) j["device_fingerprint"] = device_fingerprint;
  j["status"] = status();
  j["compiled"] = compiled;
  j["cancelled"] = cancelled;
  j["correct"] = correct();
  j["speedup"] = opt_json(speedup());
  j["baseline"] = baseline();
  j["speedup_vs_naive"] = opt_json(speedup_vs_naive());
  if (const auto lc = library_correct()) j["library_correct"] = *lc;
  else j["library_correct"] = nullptr;
  j["score"] = score();
  j["accuracy"] = {{"bits", opt_json(accuracy_bits())}, {"max_ulps", opt_json(accuracy_max_ulps())},
                   {"timed_bits", opt_json(timed_accuracy_bits())},
                   {"timed_max_ulps", opt_json(timed_accuracy_max_ulps())}};
  json diags = json::array();
  for (const auto& d : compile.diagnostics)
    diags.push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity},
                     {"message", d.message}});
  j["compile"] = {{"ok", compile.ok}, {"cached", compile.cached}, {"seconds", compile.seconds},
                  {"command", compile.command}, {"diagnostics", diags}, {"log", compile.log}};
  j["cases"] = json::array();
  for (const auto& c : cases) {
    json cj = {{"name", c.name}, {"status", case_status_name(c.status)}, {"correct", c.correct()},
               {"message", c.message}, {"baseline_median_ns", opt_json(c.baseline_median_ns)},
               {"kernel_median_ns", opt_json(c.kernel_median_ns)}, {"speedup", opt_json(c.speedup)},
               {"speedup_ci95", c.speedup_interval ? json::array({c.speedup_interval->first, c.speedup_interval->second})
                                                   : json(nullptr)},
               {"hw_bound_ns", opt_json(c.hw_bound_ns)}, {"hap", opt_json(c.hap)},
               {"network_isolated", c.network_isolated}, {"network_failure", c.network_failure},
               {"stop_rule", c.stop_rule}, {"timed", c.timed}, {"failed_call", c.failed_call},
               {"baseline_ns", c.baseline_ns}, {"kernel_ns", c.kernel_ns}, {"outputs", json::array()},
               {"log", c.log}};
    for (const auto& o : c.outputs) cj["outputs"].push_back(check_json(o));
    cj["baseline"] = c.baseline;
    cj["naive_median_ns"] = opt_json(c.naive_median_ns);
    cj["speedup_vs_naive"] = opt_json(c.speedup_vs_naive);
    cj["hap_vs_naive"] = opt_json(c.hap_vs_naive);
    cj["library_median_ns"] = opt_json(c.library_median_ns);
    cj["library_ns"] = c.library_ns;
    cj["library_ran"] = c.library_ran;
    cj["library_correct"] = c.library_correct ? json(*c.library_correct) : json(nullptr);
    cj["library_message"] = c.library_message;
    if (!c.evidence.is_null()) cj["evidence"] = c.evidence;
    cj["library_outputs"] = json::array();
    for (const auto& o : c.library_outputs) cj["library_outputs"].push_back(check_json(o));
    cj["baseline_outputs"] = json::array();
    for (const auto& o : c.baseline_outputs) cj["baseline_outputs"].push_back(check_json(o));
    cj["timed_worst_outputs"] = json::array();
    for (const auto& o : c.timed_worst) cj["timed_worst_outputs"].push_back(check_json(o));
    if (!c.last_outputs.empty()) {
      cj["last_run_outputs"] = json::array();
      for (const auto& o : c.last_outputs) cj["last_run_outputs"].push_back(check_json(o));
    }
    j["cases"].push_back(cj);
  }
  j["errors"] = errors;
  j["warnings"] = warnings;
  j["settings"] = {{"warmup", options.warmup}, {"reps", options.reps}, {"pool", options.pool},
                   {"case_timeout_s", options.case_timeout_seconds}, {"memory_mb", options.memory_bytes >> 20},
                   {"cxxflags", options.cxxflags}, {"interleave", options.interleave},
                   {"max_reps", options.max_reps}, {"ci_rel_width", options.ci_rel_width},
                   {"case_budget_s", options.case_budget_seconds}, {"flush", options.flush},
                   {"library", options.library}, {"skip_large", options.skip_large}};
  j["timing"] = {{"wall_s", wall_seconds}, {"timed_calls_s", timed_call_seconds},
                 {"share_in_timed_calls", wall_seconds > 0 ? timed_call_seconds / wall_seconds : 0.0},
                 {"flush", flush_method}};
  j["worker_isolation"] = worker_isolation;
  if (between)
    j["between_evaluations"] = {{"sd_log", between->sd_log}, {"dof", between->dof},
                                {"evaluations", between->evaluations}, {"tasks", between->tasks}};
  return j;
}

}  // namespace kope

#include "kope/cli/print_report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <sstream>

#include "kope/base/format.h"
#include "kope/model/stats.h"

namespace kope::cli {

namespace {

// One formatting for the CLI and the window (kope/base/format.h).
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

}  // namespace

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
    if (auto ci = report_speedup_interval(rep)) {
      out << ", 95% interval " << fmt_x(ci->low) << " .. " << fmt_x(ci->high);
      if (rep.between && rep.between->dof >= kBetweenMinDof)
        out << " with the spread of " << rep.between->evaluations << " earlier evaluations";
      else
        out << " of this evaluation's noise alone";
    }
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

void print_attempt(const loop::LoopEvent& e, std::ostream& err) {
  // With tasks in flight at once (--jobs N) their lines interleave: a line of another task than the last
  // printed one comes under its task's header again.
  static std::string last;  // the loop calls this one event at a time
  if (e.attempt || e.skipped) {
    if (e.task != last) err << "== " << e.task << "\n";
  }
  last = e.task;
  if (e.skipped) {
    err << "   skipped " << e.skipped->name << ": " << e.skipped->reason << "\n";
    return;
  }
  if (!e.attempt) {
    err << "== " << e.task << "\n";
    return;
  }
  const loop::Attempt& a = *e.attempt;
  err << "   " << std::left << std::setw(52) << a.name + " " << std::setw(16) << a.status + " " << std::setw(9)
      << fmt_x(a.speedup) << std::setw(11) << (a.accuracy_bits ? fmt_bits(*a.accuracy_bits) + " bits" : "")
      << (a.promoted       ? "promoted"
          : a.needs_review ? "needs review (faster than the hardware floor): kope review approve " +
                                 std::to_string(a.evaluation_id)
                           : "")
      << "\n";
  if (a.transcript_id)
    err << "      attempt " << a.transcript_id << " (kope transcript " << a.transcript_id << "): "
        << a.thought << "\n";
  if (a.status == "error" || a.status == "no_candidate" || a.status == "infrastructure") err << "      " << a.message << "\n";
}

void print_goldens(const std::string& task, const EvalProgress& p, std::ostream& err) {
  if (p.phase != EvalProgress::Phase::Goldens) return;
  static std::mutex mu;  // the golden runs report from their own thread, beside the loop's lines
  std::lock_guard<std::mutex> lock(mu);
  err << "   goldens of " << task << ": " << p.case_index << " of " << p.case_count << " computed"
      << (p.case_name.empty() ? std::string() : ", now " + p.case_name) << "\n";
}

}  // namespace kope::cli

// `kope doctor`: runs the checks, builds the summary, and carries the report to and from JSON.
#include "kope/doctor/doctor.h"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "kope/doctor/doctor_internal.h"
#include "kope/base/error.h"
#include "kope/base/text.h"

namespace kope::doctor {

namespace fs = std::filesystem;
using nlohmann::json;

namespace detail {

fs::path SysView::at(std::string_view abs_path) const {
  std::string_view rel = abs_path;
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  return root / fs::path(std::string(rel));
}

bool SysView::exists(std::string_view abs_path) const {
  std::error_code ec;
  return fs::exists(at(abs_path), ec);
}

std::optional<std::string> SysView::line(std::string_view abs_path) const {
  std::ifstream in(at(abs_path));
  if (!in) return std::nullopt;
  std::string s;
  if (!std::getline(in, s) && !in.eof()) return std::nullopt;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

DoctorCheck make_check(std::string id, std::string area, std::string title) {
  DoctorCheck c;
  c.id = std::move(id);
  c.area = std::move(area);
  c.title = std::move(title);
  return c;
}

std::string absent(std::string_view abs_path) {
  return "unknown: " + std::string(abs_path) + " is absent (a VM usually hides it)";
}

std::string bytes_text(unsigned long long b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  double v = static_cast<double>(b);
  while (v >= 1024 && u < 3 && b % (1ull << (10 * (u + 1))) == 0) v /= 1024, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  return buf;
}

}  // namespace detail

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Ok: return "ok";
    case Verdict::Info: return "info";
    case Verdict::Warn: return "warn";
    case Verdict::Fail: return "fail";
  }
  return "info";
}

std::optional<Verdict> verdict_from_name(std::string_view name) {
  for (Verdict v : {Verdict::Ok, Verdict::Info, Verdict::Warn, Verdict::Fail})
    if (verdict_name(v) == name) return v;
  return std::nullopt;
}

bool DoctorReport::verdicts_possible() const {
  for (const auto& c : checks)
    if (c.blocks_verdicts && c.verdict == Verdict::Fail) return false;
  return true;
}

const DoctorCheck* DoctorReport::find(std::string_view id) const {
  for (const auto& c : checks)
    if (c.id == id) return &c;
  return nullptr;
}

void summarise(DoctorReport& r) {
  r.trustworthy_because.clear();
  r.weakened_because.clear();
  for (const auto& c : r.checks) {
    if (c.because.empty()) continue;
    if (c.verdict == Verdict::Ok) r.trustworthy_because.push_back(c.because);
    else if (c.verdict == Verdict::Warn || c.verdict == Verdict::Fail || c.unknown) r.weakened_because.push_back(c.because);
  }
}

DoctorReport run_doctor(const DoctorOptions& o) {
  using namespace detail;
  const SysView sys{o.root};
  DoctorReport r;
  std::string cxx_path;
  r.checks.push_back(check_compiler(o, cxx_path));
  r.checks.push_back(check_library(cxx_path));
  r.checks.push_back(check_user_namespaces(sys));
  r.checks.push_back(check_bubblewrap());
  r.checks.push_back(check_seccomp());
  r.checks.push_back(check_cpu_clock(sys));
  r.checks.push_back(check_cgroups(sys));
  r.checks.push_back(check_caches(sys));
  r.checks.push_back(check_timer(sys));
  r.checks.push_back(check_governor(sys));
  r.checks.push_back(check_turbo(sys));
  r.checks.push_back(check_isolated_cores(sys));
  r.checks.push_back(check_smt(sys));
  r.checks.push_back(check_load(sys));
  if (o.devices) r.checks.push_back(check_devices());
  for (auto& c : r.checks) {  // text from the system is escaped where it enters the report
    c.found = escape_terminal(c.found);
    c.todo = escape_terminal(c.todo);
    c.because = escape_terminal(c.because);
  }
  summarise(r);
  return r;
}

json to_json(const DoctorReport& r) {
  json checks = json::array();
  for (const auto& c : r.checks)
    checks.push_back({{"id", c.id}, {"area", c.area}, {"title", c.title}, {"verdict", verdict_name(c.verdict)},
                      {"unknown", c.unknown}, {"blocks_verdicts", c.blocks_verdicts}, {"found", c.found},
                      {"todo", c.todo}, {"because", c.because}});
  return {{"checks", checks}, {"verdicts_possible", r.verdicts_possible()},
          {"trustworthy_because", r.trustworthy_because}, {"weakened_because", r.weakened_because}};
}

DoctorReport doctor_report_from_json(const json& j) {
  auto need = [](const json& o, const char* key, const std::string& where) -> const json& {
    if (!o.is_object() || !o.contains(key)) throw Error("doctor report: " + where + " lacks \"" + key + "\"");
    return o.at(key);
  };
  auto text = [&](const json& o, const char* key, const std::string& where) {
    const json& v = need(o, key, where);
    if (!v.is_string()) throw Error("doctor report: " + where + "/" + key + " is not a string");
    return v.get<std::string>();
  };
  DoctorReport r;
  const json& checks = need(j, "checks", "the report");
  if (!checks.is_array()) throw Error("doctor report: checks is not an array");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const json& c = checks[i];
    const std::string where = "checks/" + std::to_string(i);
    DoctorCheck d;
    d.id = text(c, "id", where);
    d.area = text(c, "area", where);
    d.title = text(c, "title", where);
    const std::string v = text(c, "verdict", where);
    auto verdict = verdict_from_name(v);
    if (!verdict) throw Error("doctor report: " + where + "/verdict \"" + v + "\" is not ok, info, warn or fail");
    d.verdict = *verdict;
    d.unknown = c.value("unknown", false);
    d.blocks_verdicts = c.value("blocks_verdicts", false);
    d.found = text(c, "found", where);
    d.todo = text(c, "todo", where);
    d.because = c.value("because", std::string());
    r.checks.push_back(std::move(d));
  }
  for (const char* key : {"trustworthy_because", "weakened_because"}) {
    const json& list = need(j, key, "the report");
    if (!list.is_array()) throw Error(std::string("doctor report: ") + key + " is not an array");
    auto& into = std::string(key) == "trustworthy_because" ? r.trustworthy_because : r.weakened_because;
    for (const auto& s : list) into.push_back(s.is_string() ? s.get<std::string>() : s.dump());
  }
  return r;
}

}  // namespace kope::doctor

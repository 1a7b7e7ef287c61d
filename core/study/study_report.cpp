// The study's report: JSON (what the window's study view reads), Markdown in the method's table form, and SVG
// bar charts of pass rate and speedup per arm and level, written by hand so that the report comes out wherever
// kope runs (a cluster's login node has no plotting library to count on).
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/memory/share.h"
#include "kope/study/study.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace kope::study {

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Markdown and SVG text from names that came from files: no table or markup breaks on them.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : (c == '\n' || c == '\r') ? std::string(" ") : std::string(1, c);
  return out;
}
std::string xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Field readers that name the field of a file that is not a study report.
const json& member(const json& j, const std::string& where, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw Error("study report: " + where + " has no \"" + key + "\"");
  return *it;
}
template <class T>
T value(const json& j, const std::string& where, const char* key) {
  try {
    return member(j, where, key).get<T>();
  } catch (const json::exception&) {
    throw Error("study report: " + where + "/" + key + " has the wrong type");
  }
}
std::optional<double> optional_number(const json& j, const std::string& where, const char* key) {
  const json& v = member(j, where, key);
  if (v.is_null()) return std::nullopt;
  if (!v.is_number()) throw Error("study report: " + where + "/" + key + " must be a number or null");
  return v.get<double>();
}

}  // namespace

json to_json(const StudyReport& r) {
  json rows = json::array(), tasks = json::array();
  for (const LevelRow& x : r.rows)
    rows.push_back({{"arm", x.arm}, {"level", x.level}, {"operators", x.operators}, {"compiled", x.compiled},
                    {"correct", x.correct}, {"cases", x.cases}, {"cases_correct", x.cases_correct},
                    {"pass_rate", x.pass_rate}, {"fast_1", x.fast_1}, {"fast_1_against", x.fast_1_against},
                    {"geomean_speedup", opt(x.geomean_speedup)}, {"score", x.score}, {"attempts", x.attempts},
                    {"tokens", x.tokens}, {"wall_s", x.wall_seconds}});
  for (const TaskRow& t : r.tasks)
    tasks.push_back({{"arm", t.arm}, {"task", t.task}, {"level", t.level}, {"kernel", t.kernel},
                     {"compiled", t.compiled}, {"correct", t.correct}, {"cases", t.cases},
                     {"cases_correct", t.cases_correct}, {"speedup", opt(t.speedup)}, {"against", t.against},
                     {"score", t.score}, {"attempts", t.attempts}, {"tokens", t.tokens}, {"error", t.error}});
  return {{"kind", "kope-study"}, {"version", 1}, {"policy", r.policy}, {"device", r.device},
          {"started", r.started}, {"finished", r.finished}, {"arms", r.arms}, {"levels", r.levels},
          {"stopped", r.stopped}, {"rows", rows}, {"tasks", tasks}};
}

StudyReport study_from_json(const json& j) {
  if (!j.is_object() || j.value("kind", std::string()) != "kope-study")
    throw Error("study report: not a kope study (no \"kind\": \"kope-study\")");
  StudyReport r;
  r.policy = value<std::string>(j, "", "policy");
  r.device = value<std::string>(j, "", "device");
  r.started = value<std::string>(j, "", "started");
  r.finished = value<std::string>(j, "", "finished");
  r.arms = value<std::vector<std::string>>(j, "", "arms");
  r.levels = value<std::vector<int>>(j, "", "levels");
  r.stopped = value<bool>(j, "", "stopped");
  const json& rows = member(j, "", "rows");
  const json& tasks = member(j, "", "tasks");
  if (!rows.is_array() || !tasks.is_array()) throw Error("study report: \"rows\" and \"tasks\" must be arrays");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& x = rows[i];
    const std::string w = "/rows/" + std::to_string(i);
    LevelRow row;
    row.arm = value<std::string>(x, w, "arm");
    row.level = value<int>(x, w, "level");
    row.operators = value<int>(x, w, "operators");
    row.compiled = value<int>(x, w, "compiled");
    row.correct = value<int>(x, w, "correct");
    row.cases = value<int>(x, w, "cases");
    row.cases_correct = value<int>(x, w, "cases_correct");
    row.pass_rate = value<double>(x, w, "pass_rate");
    row.fast_1 = value<double>(x, w, "fast_1");
    row.fast_1_against = value<std::string>(x, w, "fast_1_against");
    row.geomean_speedup = optional_number(x, w, "geomean_speedup");
    row.score = value<double>(x, w, "score");
    row.attempts = value<int>(x, w, "attempts");
    row.tokens = value<int64_t>(x, w, "tokens");
    row.wall_seconds = value<double>(x, w, "wall_s");
    r.rows.push_back(std::move(row));
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const json& x = tasks[i];
    const std::string w = "/tasks/" + std::to_string(i);
    TaskRow t;
    t.arm = value<std::string>(x, w, "arm");
    t.task = value<std::string>(x, w, "task");
    t.level = value<int>(x, w, "level");
    t.kernel = value<std::string>(x, w, "kernel");
    t.compiled = value<bool>(x, w, "compiled");
    t.correct = value<bool>(x, w, "correct");
    t.cases = value<int>(x, w, "cases");
    t.cases_correct = value<int>(x, w, "cases_correct");
    t.speedup = optional_number(x, w, "speedup");
    t.against = value<std::string>(x, w, "against");
    t.score = value<double>(x, w, "score");
    t.attempts = value<int>(x, w, "attempts");
    t.tokens = value<int64_t>(x, w, "tokens");
    t.error = value<std::string>(x, w, "error");
    r.tasks.push_back(std::move(t));
  }
  return r;
}

std::string to_markdown(const StudyReport& r) {
  std::ostringstream md;
  md << "# kope study\n\n"
     << "Policy `" << cell(r.policy) << "` on `" << cell(r.device) << "`, " << cell(r.started) << " to "
     << cell(r.finished) << (r.stopped ? " (stopped before every arm and level ran)" : "") << ".\n"
     << "Pass rate: correct cases / cases. fast_1: operators correct and faster than the library (where a task has "
        "no library measurement, the naive baseline). Speedup: geometric mean over the correct operators. Score: "
        "CANN Bench's, summed over the operators.\n";
  for (const std::string& arm : r.arms) {
    md << "\n## Arm " << cell(arm) << "\n\n"
       << "| level | operators | compiled | correct | pass rate | fast_1 | geomean speedup | score | attempts | tokens | wall |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const LevelRow& x : r.rows) {
      if (x.arm != arm) continue;
      md << "| L" << x.level << " | " << x.operators << " | " << x.compiled << " | " << x.correct << " | "
         << fixed(100 * x.pass_rate, 1) << "% (" << x.cases_correct << "/" << x.cases << ") | "
         << fixed(100 * x.fast_1, 1) << "% | " << (x.geomean_speedup ? fixed(*x.geomean_speedup, 2) + "x" : "-")
         << " | " << fixed(x.score, 1) << " | " << x.attempts << " | " << x.tokens << " | "
         << fixed(x.wall_seconds, 0) << " s |\n";
    }
  }
  md << "\n## Operators\n\n| arm | level | operator | kernel | cases | speedup | score |\n|---|---|---|---|---|---|---|\n";
  for (const TaskRow& t : r.tasks)
    md << "| " << cell(t.arm) << " | L" << t.level << " | " << cell(t.task) << " | "
       << (t.kernel.empty() ? "-" : cell(t.kernel)) << " | " << t.cases_correct << "/" << t.cases << " | "
       << (t.speedup && t.correct ? fixed(*t.speedup, 2) + "x vs " + t.against : "-") << " | " << fixed(t.score, 1)
       << (t.error.empty() ? "" : " (error: " + cell(t.error.substr(0, 120)) + ")") << " |\n";
  md << "\nPlots: [pass rate](pass_rate.svg), [speedup](speedup.svg).\n";
  return md.str();
}

std::string svg_chart(const StudyReport& r, const std::string& figure) {
  if (figure != "pass_rate" && figure != "speedup") throw Error("no study chart \"" + figure + "\"");
  const bool pass = figure == "pass_rate";
  auto value_of = [&](const LevelRow& x) { return pass ? 100 * x.pass_rate : x.geomean_speedup.value_or(0.0); };
  double top = pass ? 100.0 : 1.0;
  for (const LevelRow& x : r.rows) top = std::max(top, value_of(x));
  if (!pass) top = std::ceil(top * 1.1 * 4) / 4;
  static const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"};
  const int arms = static_cast<int>(r.arms.size()), levels = static_cast<int>(r.levels.size());
  const double left = 60, bottom = 260, height = 200, group = std::max(120.0, 40.0 * arms + 40);
  const double width = left + group * levels + 160;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"320\" font-family=\"sans-serif\" "
       "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << left << "\" y=\"24\" font-size=\"15\">"
    << (pass ? "Pass rate (% of cases) per arm and level" : "Geometric-mean speedup per arm and level") << "</text>\n"
    << "<line x1=\"" << left << "\" y1=\"" << bottom << "\" x2=\"" << left + group * levels << "\" y2=\"" << bottom
    << "\" stroke=\"black\"/>\n";
  for (int k = 0; k <= 4; ++k) {  // the value axis
    const double v = top * k / 4, y = bottom - height * k / 4;
    s << "<text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << fixed(v, pass ? 0 : 2)
      << (pass ? "%" : "x") << "</text><line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + group * levels
      << "\" y2=\"" << y << "\" stroke=\"#ddd\"/>\n";
  }
  if (!pass) {  // where the baseline is
    const double y = bottom - height * 1.0 / top;
    s << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + group * levels << "\" y2=\"" << y
      << "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
  }
  for (int li = 0; li < levels; ++li) {
    const double x0 = left + group * li + 20;
    s << "<text x=\"" << left + group * li + group / 2 << "\" y=\"" << bottom + 18 << "\" text-anchor=\"middle\">L"
      << r.levels[static_cast<std::size_t>(li)] << "</text>\n";
    for (int ai = 0; ai < arms; ++ai)
      for (const LevelRow& x : r.rows) {
        if (x.arm != r.arms[static_cast<std::size_t>(ai)] || x.level != r.levels[static_cast<std::size_t>(li)]) continue;
        const double v = value_of(x), h = top > 0 ? height * v / top : 0;
        s << "<rect x=\"" << x0 + 40 * ai << "\" y=\"" << bottom - h << "\" width=\"32\" height=\"" << h
          << "\" fill=\"" << kColours[ai % 6] << "\"><title>" << xml(x.arm) << " L" << x.level << ": "
          << fixed(v, 2) << "</title></rect>\n<text x=\"" << x0 + 40 * ai + 16 << "\" y=\"" << bottom - h - 4
          << "\" text-anchor=\"middle\" font-size=\"10\">"
          << (pass || x.geomean_speedup ? fixed(v, pass ? 1 : 2) : std::string("-")) << "</text>\n";
      }
  }
  for (int ai = 0; ai < arms; ++ai)  // the legend
    s << "<rect x=\"" << left + group * levels + 20 << "\" y=\"" << 50 + 20 * ai << "\" width=\"12\" height=\"12\" fill=\""
      << kColours[ai % 6] << "\"/><text x=\"" << left + group * levels + 38 << "\" y=\"" << 60 + 20 * ai << "\">"
      << xml(r.arms[static_cast<std::size_t>(ai)]) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

void write_study(const StudyReport& r, const fs::path& dir) {
  fs::create_directories(dir);
  write_file_atomic(dir / "study.json", to_json(r).dump(2) + "\n");
  write_file_atomic(dir / "study.md", to_markdown(r));
  write_file_atomic(dir / "pass_rate.svg", svg_chart(r, "pass_rate"));
  write_file_atomic(dir / "speedup.svg", svg_chart(r, "speedup"));
}

StudyReport read_study(const fs::path& dir) {
  const fs::path file = fs::is_directory(dir) ? dir / "study.json" : dir;
  std::string text;
  try {
    text = read_file(file);
  } catch (const Error& e) {
    throw Error("cannot read the study report '" + file.string() + "': " + e.what());
  }
  // A study report is a few tables deep: anything deeper is not one, and is refused before it is built.
  if (!memory::json_nesting_within(text, 16)) throw Error("'" + file.string() + "' is nested too deep for a study report");
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw Error("'" + file.string() + "' is not JSON");
  try {
    return study_from_json(j);
  } catch (const Error& e) {
    throw Error("'" + file.string() + "': " + e.what());
  }
}

}  // namespace kope::study

#include "kope/agent/context.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "kope/base/format.h"

using namespace kope::workspace;

namespace kope::agent {

using nlohmann::json;

std::string_view tier_name(Tier t) {
  switch (t) {
    case Tier::Hot: return "hot";
    case Tier::Warm: return "warm";
    case Tier::Cold: return "cold";
  }
  return "?";
}

std::string_view arm_name(MemoryArm a) {
  switch (a) {
    case MemoryArm::Off: return "off";
    case MemoryArm::Dump: return "dump";
    case MemoryArm::Active: return "active";
  }
  return "?";
}

std::optional<MemoryArm> arm_from_name(std::string_view s) {
  if (s == "off") return MemoryArm::Off;
  if (s == "dump") return MemoryArm::Dump;
  if (s == "active") return MemoryArm::Active;
  return std::nullopt;
}

int64_t Estimator::operator()(std::string_view text) const {
  return static_cast<int64_t>(std::ceil(static_cast<double>(raw(text)) * ratio));
}

namespace {

std::string head_lines(const std::string& s, int max_lines) {
  std::size_t pos = 0;
  for (int i = 0; i < max_lines; ++i) {
    pos = s.find('\n', pos);
    if (pos == std::string::npos) return s;
    ++pos;
  }
  return s.substr(0, pos) + "// ... (" + std::to_string(std::count(s.begin() + pos, s.end(), '\n')) + " more lines)\n";
}

std::string first_error(const std::string& report) {
  json j = json::parse(report, nullptr, false);
  if (j.is_object() && j.contains("errors") && j["errors"].is_array() && !j["errors"].empty() &&
      j["errors"][0].is_string())
    return j["errors"][0].get<std::string>().substr(0, 400);
  if (!j.is_object()) return report.substr(0, 400);  // status "error": the text itself
  return "";
}

}  // namespace

std::vector<ContextItem> WorkspaceExperience::retrieve(const ExperienceQuery& q) {
  std::vector<EvaluationRow> rows = ws_.evaluations(std::nullopt, scan_limit_);
  std::reverse(rows.begin(), rows.end());  // insertion order
  std::vector<ContextItem> out;
  std::vector<std::string> seen;  // one item per task and kernel version: its latest outcome
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    const EvaluationRow& r = *it;
    if (r.status == "running" || r.status == "interrupted" || r.status == "error") continue;
    if (!q.device.empty() && r.device != q.device) continue;
    const std::string key = r.task + "/" + r.kernel_sha256;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    const bool same = q.task && r.task == q.task->name;
    const bool correct = r.correct.value_or(false);
    if (!same && !correct) continue;  // other tasks' failures say little about this one
    const std::string source = ws_.kernel_source(r.kernel_id).value_or("");
    if (same && !q.incumbent_source.empty() && source == q.incumbent_source) continue;  // already hot
    const std::string thought = thought_of(source);
    ContextItem c;
    c.source_id = r.id;
    c.source_kind = correct ? "case" : "failure";
    c.tier = same ? Tier::Warm : Tier::Cold;
    const std::string speed = r.speedup ? format::fixed(*r.speedup) + "x" : "-";
    c.label = "case " + std::to_string(r.id) + " " + r.task + " " + r.status + (correct ? " " + speed : "");
    c.text = "Case #" + std::to_string(r.id) + " (task " + r.task + ", " + r.status +
             (correct ? ", speedup " + speed : "") + ")\nthought: " + (thought.empty() ? "(none given)" : thought) + "\n";
    if (correct) {
      c.text += "kernel:\n```cpp\n" + head_lines(source, same ? 80 : 40) + "```\n";
      c.rank = (same ? 100.0 : 10.0) + r.speedup.value_or(0.0);
    } else {
      c.text += "failed: " + first_error(r.report) + "\n";
      c.rank = 50.0 + static_cast<double>(r.id) * 1e-9;  // below this task's successes, newest first
    }
    out.push_back(std::move(c));
  }
  if (q.ranked) {
    std::stable_sort(out.begin(), out.end(), [](const ContextItem& a, const ContextItem& b) { return a.rank > b.rank; });
  } else {
    std::sort(out.begin(), out.end(), [](const ContextItem& a, const ContextItem& b) { return a.source_id < b.source_id; });
  }
  return out;
}

std::string render(const std::string& tmpl, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  std::size_t i = 0;
  while (i < tmpl.size()) {
    std::size_t open = tmpl.find("{{", i);
    if (open == std::string::npos) break;
    std::size_t close = tmpl.find("}}", open + 2);
    if (close == std::string::npos) break;
    out.append(tmpl, i, open - i);
    const std::string name = tmpl.substr(open + 2, close - open - 2);
    auto v = std::find_if(values.begin(), values.end(), [&](const auto& p) { return p.first == name; });
    if (v != values.end()) out += v->second;
    else out.append(tmpl, open, close + 2 - open);
    i = close + 2;
  }
  out.append(tmpl, i, std::string::npos);
  return out;
}

namespace {

// The budget: B_k = max(0, W - S - G - R) and the quotas.
Budget make_budget(const AssembleInput& in, int64_t window, int64_t generation, const AssembleOptions& opt,
                   const Estimator& est) {
  Budget b;
  b.window = window;
  b.system = est(in.system);
  b.generation = generation;
  b.reserve = opt.reserve >= 0 ? opt.reserve : std::max<int64_t>(256, window / 20);
  b.budget = std::max<int64_t>(0, window - b.system - b.generation - b.reserve);
  b.quota_warm = opt.quota_warm;
  b.quota_cold = opt.quota_cold;
  b.quota_docs = opt.quota_docs;
  return b;
}

// Hot: the template's own words and every hot section, all of which must fit the budget.
void add_hot(Prompt& p, const AssembleInput& in, const Estimator& est) {
  Budget& b = p.budget;
  std::vector<std::pair<std::string, std::string>> empty;
  for (const auto& s : in.hot) empty.push_back({s.name, ""});
  empty.push_back({"experience", ""});
  empty.push_back({"background", ""});
  Section glue{"template", Tier::Hot, "template", 0, "user prompt template", "", 0, 0};
  glue.tokens = est(render(in.user_template, empty));
  p.sections.push_back(glue);
  b.hot = glue.tokens;
  for (Section s : in.hot) {
    s.tier = Tier::Hot;
    s.tokens = est(s.text);
    b.hot += s.tokens;
    p.sections.push_back(std::move(s));
  }
  if (b.hot > b.budget) {
    std::string parts;
    for (const auto& s : p.sections) parts += (parts.empty() ? "" : ", ") + s.name + " " + std::to_string(s.tokens);
    throw Error("context infeasible: the hot payload needs " + std::to_string(b.hot) + " tokens (" + parts +
                ") but the budget is B_k = max(0, W - S - G - R) = max(0, " + std::to_string(b.window) + " - " +
                std::to_string(b.system) + " - " + std::to_string(b.generation) + " - " + std::to_string(b.reserve) +
                ") = " + std::to_string(b.budget) +
                " tokens; use a model with a larger context_window or lower max_output_tokens");
  }
}

// Experience and documents admitted into what is left of the budget; the others go to the prompt's left_out.
struct Admission {
  Prompt& p;
  const Estimator& est;
  int64_t left;
  std::vector<Section> warm, cold;

  // An item ranked below 0 is not relevant here: listed, never admitted; a quota below 0 is no quota.
  void admit(const ContextItem& c, Tier tier, int quota, int& taken, std::vector<Section>& into) {
    Section s{c.source_kind == "doc" ? "doc" : "experience", tier, c.source_kind, c.source_id, c.label, c.text, 0, c.rank};
    s.tokens = est(c.text + "\n");
    const char* why = c.rank < 0                    ? "left out: not relevant"
                      : quota >= 0 && taken >= quota ? "left out: quota"
                      : s.tokens > left              ? "left out: budget"
                                                     : nullptr;
    if (why) {
      s.text.clear();
      s.name = why;
      p.left_out.push_back(std::move(s));
      return;
    }
    ++taken;
    left -= s.tokens;
    into.push_back(std::move(s));
  }
};

// Off: documents only. Dump: everything that fits, in insertion order, no quotas. Active: warm by rank up to
// Q_w, then cold experience by rank up to Q_c, then documents by rank up to Q_d.
void admit_items(Admission& a, const AssembleInput& in, const AssembleOptions& opt) {
  if (opt.arm == MemoryArm::Dump) {
    int none = 0;
    for (const auto& c : in.items) a.admit(c, c.tier, -1, none, c.tier == Tier::Cold ? a.cold : a.warm);
    return;
  }
  std::vector<const ContextItem*> w, c, d;
  for (const auto& it : in.items) {
    if (it.source_kind == "doc") d.push_back(&it);
    else if (opt.arm != MemoryArm::Off) (it.tier == Tier::Warm ? w : c).push_back(&it);
  }
  auto by_rank = [](const ContextItem* x, const ContextItem* y) { return x->rank > y->rank; };
  std::stable_sort(w.begin(), w.end(), by_rank);
  std::stable_sort(c.begin(), c.end(), by_rank);
  std::stable_sort(d.begin(), d.end(), by_rank);
  int nw = 0, nc = 0, nd = 0;
  for (const auto* it : w) a.admit(*it, Tier::Warm, opt.quota_warm, nw, a.warm);
  for (const auto* it : c) a.admit(*it, Tier::Cold, opt.quota_cold, nc, a.cold);
  for (const auto* it : d) a.admit(*it, Tier::Cold, opt.quota_docs, nd, a.cold);
}

}  // namespace

Prompt assemble(const AssembleInput& in, int64_t window, int64_t generation, const AssembleOptions& opt,
                const Estimator& est) {
  Prompt p;
  p.system = in.system;
  p.budget = make_budget(in, window, generation, opt, est);
  Budget& b = p.budget;
  add_hot(p, in, est);
  Admission a{p, est, b.budget - b.hot, {}, {}};
  admit_items(a, in, opt);
  std::string experience, background;
  for (const auto& s : a.warm) {
    experience += s.text + "\n";
    b.warm += s.tokens;
  }
  for (const auto& s : a.cold) {
    background += s.text + "\n";
    b.cold += s.tokens;
  }
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& s : in.hot) values.push_back({s.name, s.text});
  values.push_back({"experience", experience.empty() ? "(none)\n" : experience});
  values.push_back({"background", background.empty() ? "(none)\n" : background});
  p.user = render(in.user_template, values);
  for (auto& s : a.warm) p.sections.push_back(std::move(s));
  for (auto& s : a.cold) p.sections.push_back(std::move(s));
  p.raw_estimate = est.raw(p.system) + est.raw(p.user);
  return p;
}

json to_json(const Section& s, bool with_text) {
  json j = {{"name", s.name}, {"tier", tier_name(s.tier)}, {"source_kind", s.source_kind},
            {"source_id", s.source_id}, {"label", s.label}, {"tokens", s.tokens}, {"rank", s.rank}};
  if (with_text) j["text"] = s.text;
  return j;
}

json to_json(const Budget& b) {
  return {{"W", b.window}, {"S", b.system}, {"G", b.generation}, {"R", b.reserve}, {"B", b.budget},
          {"hot", b.hot}, {"warm", b.warm}, {"cold", b.cold}, {"Q_w", b.quota_warm}, {"Q_c", b.quota_cold},
          {"Q_d", b.quota_docs}};
}

}  // namespace kope::agent

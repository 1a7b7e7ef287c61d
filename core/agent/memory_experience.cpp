#include "kope/agent/memory_experience.h"

#include <algorithm>
#include <cstdio>

#include "kope/base/format.h"

namespace kope::agent {

std::vector<ContextItem> context_items(const std::vector<memory::RetrievedItem>& items, const std::string& task,
                                       const std::string& device) {
  std::vector<ContextItem> out;
  const double n = static_cast<double>(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const memory::RetrievedItem& it = items[i];
    ContextItem c;
    const bool other_device = !device.empty() && !it.device.empty() && it.device != device;
    const bool same = it.task == task && !it.foreign && !other_device;
    c.tier = same || it.pinned ? Tier::Warm : Tier::Cold;
    c.source_kind = it.kind == "failure" ? "failure" : "case";
    c.source_id = it.case_id;
    c.rank = n - static_cast<double>(i);  // the memory's order
    c.label = "case " + std::to_string(it.case_id) + " " + it.task + (other_device ? " on " + it.device : "") + " " +
              it.label + " (" + it.provenance + ")";
    std::string t = "Case #" + std::to_string(it.case_id) + " (task " + it.task + (it.foreign ? ", from another workspace" : "") +
                    (other_device ? ", measured on " + it.device + ", not on " + device : "") +
                    ", " + (it.correct ? "correct" : "incorrect") + ", " + it.label +
                    (it.correct ? ", speedup " + format::fixed(it.a_v) + "x, confidence " + format::fixed(it.c_v) : "") + ")\n";
    t += "thought: " + (it.thought.empty() ? std::string("(none given)") : it.thought) + "\n";
    if (!it.summary.empty()) t += it.summary + "\n";
    if (!it.snippet.empty()) t += "code:\n```\n" + it.snippet + (it.snippet.back() == '\n' ? "" : "\n") + "```\n";
    if (!it.journal_excerpt.empty()) t += "journal: " + it.journal_excerpt + "\n";
    c.text = std::move(t);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<ContextItem> MemoryDumpSource::retrieve(const ExperienceQuery& q) {
  memory::CaseFilter f;
  if (!q.device.empty()) f.device = q.device;
  f.include_excluded = false;
  f.limit = limit_;
  std::vector<memory::CaseRow> rows = store_.cases(f);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  std::vector<ContextItem> out;
  for (const auto& r : rows) {
    ContextItem c;
    const bool same = q.task && r.task == q.task->name;
    c.tier = same ? Tier::Warm : Tier::Cold;
    c.source_kind = r.correct ? "case" : "failure";
    c.source_id = r.id;
    c.label = "case " + std::to_string(r.id) + " " + r.task + " " + r.label;
    c.text = "Case #" + std::to_string(r.id) + " (task " + r.task + ", " + r.status +
             (r.correct ? ", speedup " + format::fixed(r.a) + "x" : "") + ")\nthought: " +
             (r.thought.empty() ? std::string("(none given)") : r.thought) + "\n";
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace kope::agent

// What `kope memory` shows (memory_views.h).
#include "kope/cli/memory_views.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/options.h"
#include "kope/memory/retrieve.h"
#include "kope/memory/share.h"
#include "kope/memory/text.h"
#include "kope/base/format.h"

namespace kope::cli {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace kope::memory;

namespace {

void require_case(const MemoryStore& m, int64_t id) {
  if (!m.get_case(id)) throw Error("no case " + std::to_string(id) + " in the memory (see kope memory cases)");
}

std::string joined(const std::vector<std::string>& v, const char* sep = ",") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

json opt_json(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

json case_json(const CaseRow& r, bool full) {
  json j = {{"id", r.id}, {"uid", r.uid}, {"evaluation_id", opt_json(r.evaluation_id)},
            {"prev_case_id", opt_json(r.prev_case_id)}, {"origin", r.origin}, {"task", r.task},
            {"task_digest", r.task_digest}, {"device", r.device}, {"hardware_digest", r.hardware_digest},
            {"kernel_id", opt_json(r.kernel_id)}, {"kernel_sha256", r.kernel_sha256}, {"kernel", r.kernel_name},
            {"thought", r.thought}, {"tags", r.tags}, {"layers", r.layers}, {"status", r.status},
            {"compiled", r.compiled}, {"correct", r.correct}, {"a", r.a}, {"c", r.c},
            {"interval", r.interval_lo ? json::array({*r.interval_lo, *r.interval_hi}) : json(nullptr)},
            {"run_id", opt_json(r.run_id)}, {"step", r.step}, {"created_at", r.created_at}, {"depth", r.depth},
            {"r", r.r}, {"label", r.label}, {"d", r.d}, {"pruned", r.pruned}, {"pinned", r.pinned},
            {"flag", r.flag.empty() ? json(nullptr) : json(r.flag)}};
  if (full) {
    j["diff"] = r.diff;
    j["feedback"] = r.feedback;
    j["scene"] = r.scene;
    j["hardware"] = r.hardware;
  }
  return j;
}

json item_json(const RetrievedItem& it, int rank) {
  return {{"rank", rank}, {"case_id", it.case_id}, {"task", it.task}, {"device", it.device}, {"label", it.label},
          {"correct", it.correct}, {"foreign", it.foreign}, {"pinned", it.pinned}, {"provenance", it.provenance},
          {"kind", it.kind}, {"a_v", it.a_v}, {"c_v", it.c_v}, {"d_v", it.d_v}, {"score", it.score},
          {"tags", it.tags}, {"thought", it.thought}, {"summary", it.summary}, {"snippet", it.snippet},
          {"journal_excerpt", it.journal_excerpt}};
}

std::string marks(const CaseRow& r) {
  std::string s;
  if (r.pruned) s += "pruned ";
  if (r.pinned) s += "pinned ";
  if (!r.flag.empty()) s += r.flag + " ";
  if (r.origin != "local") s += "foreign ";
  return s;
}

json show_json(const CaseRow& c, MemoryStore& m, const std::vector<ContextRow>& shown) {
  json j = case_json(c, true);
  j["children"] = m.children(c.id);
  json je = json::array(), ja = json::array(), js = json::array();
  for (const auto& e : m.journal(std::nullopt, c.id))
    je.push_back({{"id", e.id}, {"kind", e.kind}, {"created_at", e.created_at}, {"markdown", e.markdown}});
  for (const auto& x : m.curation(c.id))
    ja.push_back({{"id", x.id}, {"act", x.act}, {"subtree", x.subtree}, {"affected", x.affected}, {"who", x.who},
                  {"at", x.at}, {"why", x.why}});
  for (const auto& s : shown)
    js.push_back({{"rank", s.rank}, {"case_id", s.case_id}, {"provenance", s.provenance}, {"kind", s.kind},
                  {"score", s.score}});
  j["journal"] = je;
  j["curation"] = ja;
  j["shown_before_attempt"] = js;
  return j;
}

// Whatever the stored scene holds (an import's included): fields of the wrong type print as "?".
void print_scene(const json& scene, std::ostream& out) {
  auto str = [](const json& o, const char* k) {
    return o.is_object() && o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string("?");
  };
  out << "scene:";
  for (const auto& sc : scene) {
    out << "  " << str(sc, "case") << ":";
    if (!sc.is_object() || !sc.contains("inputs") || !sc["inputs"].is_array()) continue;
    for (const auto& t : sc["inputs"])
      out << " " << str(t, "name") << ":" << str(t, "dtype")
          << (t.is_object() && t.contains("shape") ? dump_json(t["shape"]) : std::string("?"));
  }
  out << "\n";
}

void print_case_fields(const CaseRow& c, std::size_t successors, std::ostream& out) {
  out << "case " << c.id << " (" << c.uid << ")" << (marks(c).empty() ? "" : "  [" + marks(c) + "]") << "\n";
  out << "task " << c.task << "  device " << c.device << "  hardware " << c.hardware_digest << "  origin "
      << c.origin << "\n";
  out << "kernel " << c.kernel_name << "  sha256 " << c.kernel_sha256.substr(0, 12)
      << (c.kernel_id ? "  (kernels row " + std::to_string(*c.kernel_id) + ")" : "") << "\n";
  out << "evaluation " << (c.evaluation_id ? std::to_string(*c.evaluation_id) : "-") << "  run "
      << (c.run_id ? std::to_string(*c.run_id) : "-") << " step " << c.step << "  started from "
      << (c.prev_case_id ? "case " + std::to_string(*c.prev_case_id) : std::string("the baseline")) << "\n";
  out << "thought: " << c.thought << "\n";
  out << "tags: " << joined(c.tags, ", ") << "   layers: " << joined(c.layers, ", ") << "\n";
  out << "status " << c.status << "  correct " << (c.correct ? "yes" : "no") << "  a " << format::fixed(c.a) << "x";
  if (c.interval_lo) out << " [" << format::fixed(*c.interval_lo) << " .. " << format::fixed(*c.interval_hi) << "]";
  out << "  c " << format::fixed(c.c) << "\n";
  out << "graph: r " << format::fixed(c.r, 4) << "  " << c.label << "  d " << format::fixed(c.d, 4) << "  depth " << c.depth
      << "  successors " << successors << "\n";
  if (c.scene.is_array()) print_scene(c.scene, out);
}

void print_show(const CaseRow& c, MemoryStore& m, const std::vector<ContextRow>& shown, std::ostream& out) {
  print_case_fields(c, m.children(c.id).size(), out);
  out << "\nfeedback:\n" << c.feedback << "\n\ndiff:\n" << (c.diff.empty() ? "(no change)\n" : c.diff);
  if (!shown.empty()) {
    out << "\nshown to the agent before this attempt:\n";
    for (const auto& s : shown)
      out << "  #" << s.rank << " case " << s.case_id << " (" << s.provenance << ", " << s.kind << ", score "
          << format::fixed(s.score, 3) << ")\n";
  }
  out << "\ncuration history:\n";
  const auto acts = m.curation(c.id);
  if (acts.empty()) out << "  (none)\n";
  for (const auto& x : acts)
    out << "  " << x.at << "  " << x.act << (x.subtree ? " subtree" : "") << " by " << x.who << " (" << x.affected
        << " changed): " << x.why << "\n";
  out << "\njournal:\n";
  for (const auto& e : m.journal(std::nullopt, c.id)) out << e.markdown << "\n";
}

void text_tree(const MemoryStore& m, const std::optional<std::string>& task, std::ostream& out) {
  CaseFilter f;
  f.task = task;
  f.limit = 1 << 30;
  auto rows = m.cases(f);
  std::reverse(rows.begin(), rows.end());
  std::map<int64_t, std::vector<const CaseRow*>> kids;
  std::map<int64_t, const CaseRow*> by_id;
  for (const auto& r : rows) by_id[r.id] = &r;
  std::vector<const CaseRow*> roots;
  for (const auto& r : rows) {
    if (r.prev_case_id && by_id.count(*r.prev_case_id)) kids[*r.prev_case_id].push_back(&r);
    else roots.push_back(&r);
  }
  std::vector<std::pair<const CaseRow*, int>> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, 0});
  while (!stack.empty()) {
    auto [r, depth] = stack.back();
    stack.pop_back();
    out << std::string(depth * 2, ' ') << (depth ? "└ " : "") << r->id << " " << r->task << " " << r->kernel_name
        << "  " << (r->correct ? format::fixed(r->a) + "x" : r->status) << "  r " << format::fixed(r->r, 3) << " " << r->label << "  d "
        << format::fixed(r->d, 3) << "  c " << format::fixed(r->c) << (marks(*r).empty() ? "" : "  [" + marks(*r) + "]") << "\n";
    auto& k = kids[r->id];
    for (auto it = k.rbegin(); it != k.rend(); ++it) stack.push_back({*it, depth + 1});
  }
}

// The file of a task's Journal inside `base`: the task name reduced to letters, digits, '_', '.' and '-' (a name
// recorded in the memory, an import's included, is never a path), made unique, and checked to stay in `base`.
fs::path journal_file(const fs::path& base, const std::string& task, std::set<std::string>& used) {
  std::string stem;
  for (char c : task.substr(0, 100))
    stem += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  while (!stem.empty() && stem.front() == '.') stem.erase(0, 1);
  if (stem.empty()) stem = "task";
  std::string name = stem;
  for (int k = 2; !used.insert(name).second; ++k) name = stem + "-" + std::to_string(k);
  const fs::path p = fs::weakly_canonical(base / (name + ".md"));
  const auto rel = p.lexically_relative(base);
  if (rel.empty() || rel.begin()->string() == ".." || rel.has_parent_path())
    throw Error("journal of task '" + task + "': '" + p.string() + "' would be outside '" + base.string() + "'");
  return p;
}

// The graph as JSON: every Case (no diffs or reports), the edges from a Case to its successors, the weights.
void graph_json(const MemoryStore& m, const std::optional<std::string>& task, std::ostream& buf) {
  CaseFilter f;
  f.task = task;
  f.limit = 1 << 30;
  json nodes = json::array(), edges = json::array();
  auto rows = m.cases(f);
  std::reverse(rows.begin(), rows.end());
  for (const auto& r : rows) {
    nodes.push_back(case_json(r, false));
    if (r.prev_case_id) edges.push_back({{"from", *r.prev_case_id}, {"to", r.id}});
  }
  const GraphWeights w = m.weights();
  buf << dump_json(json{{"weights", {{"w_self", w.w_self}, {"w_succ", w.w_succ}, {"gamma", w.gamma}}},
                        {"nodes", nodes}, {"edges", edges}}, 2) << "\n";
}

}  // namespace

int memory_cases(const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  CaseFilter f;
  f.task = a.task;
  f.device = a.device;
  f.label = a.label;
  f.limit = a.limit;
  const auto rows = m.cases(f);
  if (a.json) {
    json arr = json::array();
    for (const auto& r : rows) arr.push_back(case_json(r, false));
    out << dump_json(arr, 2) << "\n";
    return kExitOk;
  }
  out << std::left << std::setw(6) << "case" << std::setw(22) << "task" << std::setw(14) << "status" << std::setw(8)
      << "a" << std::setw(8) << "r" << std::setw(12) << "label" << std::setw(7) << "d" << std::setw(6) << "c"
      << std::setw(6) << "prev" << "kernel\n";
  for (const auto& r : rows)
    out << std::left << std::setw(6) << r.id << std::setw(22) << r.task << std::setw(14) << r.status << std::setw(8)
        << (r.correct ? format::fixed(r.a) + "x" : "-") << std::setw(8) << format::fixed(r.r) << std::setw(12) << r.label << std::setw(7)
        << format::fixed(r.d) << std::setw(6) << format::fixed(r.c) << std::setw(6)
        << (r.prev_case_id ? std::to_string(*r.prev_case_id) : "-") << r.kernel_name
        << (marks(r).empty() ? "" : "  [" + marks(r).substr(0, marks(r).size() - 1) + "]") << "\n";
  out << rows.size() << " case(s)" << (static_cast<int>(rows.size()) == f.limit ? " (--limit reached)" : "") << "\n";
  return kExitOk;
}

int memory_show(const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  if (!a.case_id) throw UsageError("usage: kope memory show CASE");
  auto c = m.get_case(*a.case_id);
  if (!c) throw Error("no case " + std::to_string(*a.case_id) + " in the memory (see kope memory cases)");
  std::vector<ContextRow> shown;
  if (c->evaluation_id) shown = m.context(*c->evaluation_id);
  if (a.json) out << dump_json(show_json(*c, m, shown), 2) << "\n";
  else print_show(*c, m, shown, out);
  return kExitOk;
}

int memory_graph(const MemoryArgs& a, MemoryStore& m, std::ostream& out, std::ostream& err) {
  if (a.weights) {
    m.set_weights(*a.weights);
    err << "graph weights set to " << a.weights->w_self << ", " << a.weights->w_succ << ", " << a.weights->gamma
        << "; rebuilt\n";
  } else if (a.rebuild) {
    const int64_t n = m.rebuild_graph();
    err << "graph rebuilt from " << n << " case(s)\n";
  }
  const std::string format = !a.format.empty() ? a.format : a.json ? "json" : "text";
  GraphExportOptions o;
  o.task = a.task;
  std::ostringstream buf;
  if (format == "dot") export_dot(m, buf, o);
  else if (format == "graphml") export_graphml(m, buf, o);
  else if (format == "json") graph_json(m, o.task, buf);
  else text_tree(m, o.task, buf);
  if (a.out) {
    std::ofstream f(*a.out, std::ios::binary);
    if (!f || !(f << buf.str())) throw Error("cannot write '" + *a.out + "'");
    err << "wrote " << *a.out << "\n";
  } else {
    out << buf.str();
  }
  return kExitOk;
}

int memory_retrieve(const MemoryArgs& a, MemoryStore& m, std::ostream& out) {
  if (!a.task) throw UsageError("usage: kope memory retrieve --task T [--device D] [--feedback TEXT] [--tags a,b] ...");
  RetrieveState s;
  s.task = *a.task;
  s.device = a.device.value_or("cpu");
  s.feedback = a.feedback.value_or("");
  s.target = a.target.value_or("");
  s.tags = a.tags;
  if (a.incumbent) {
    require_case(m, *a.incumbent);
    s.incumbent_case = a.incumbent;
  }
  RetrieveOptions o;
  o.per_bucket = a.per_bucket;
  o.use_fts = !a.no_fts;
  const auto items = retrieve(m, s, o);
  if (a.json) {
    json arr = json::array();
    for (std::size_t i = 0; i < items.size(); ++i) arr.push_back(item_json(items[i], static_cast<int>(i)));
    out << dump_json(json{{"fts", o.use_fts && m.fts_enabled()}, {"items", arr}}, 2) << "\n";
    return kExitOk;
  }
  if (items.empty()) out << "nothing in the memory for " << s.task << " on " << s.device << "\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& it = items[i];
    out << "#" << i << " [" << it.provenance << ", " << it.kind << ", " << it.label << ", score " << format::fixed(it.score, 3)
        << "] " << it.summary << "\n";
    if (!it.journal_excerpt.empty()) out << "    journal: " << it.journal_excerpt << "\n";
  }
  if (!(o.use_fts && m.fts_enabled())) out << "(full-text search off: exact retrieval only)\n";
  return kExitOk;
}

int memory_journal(const MemoryArgs& a, MemoryStore& m, std::ostream& out, std::ostream& err) {
  const auto& task = a.task;
  const auto entries = m.journal(task);
  if (const auto& dir = a.export_dir) {
    std::error_code ec;
    fs::create_directories(*dir, ec);
    if (ec) throw Error("cannot create '" + *dir + "': " + ec.message());
    std::map<std::string, std::string> per_task;
    for (const auto& e : entries) per_task[e.task] += e.markdown + "\n";
    const fs::path base = fs::weakly_canonical(fs::absolute(*dir));
    std::set<std::string> used;
    for (const auto& [t, text] : per_task) {
      const fs::path p = journal_file(base, t, used);
      std::ofstream f(p, std::ios::binary);
      if (!f || !(f << "# Journal: " << t << "\n\n" << text)) throw Error("cannot write '" + p.string() + "'");
      err << "wrote " << p.string() << "\n";
    }
    return kExitOk;
  }
  if (a.json) {
    json arr = json::array();
    for (const auto& e : entries)
      arr.push_back({{"id", e.id}, {"case_id", opt_json(e.case_id)}, {"task", e.task}, {"kind", e.kind},
                     {"created_at", e.created_at}, {"markdown", e.markdown}});
    out << dump_json(arr, 2) << "\n";
    return kExitOk;
  }
  if (entries.empty()) out << "the journal" << (task ? " of " + *task : std::string()) << " is empty\n";
  for (const auto& e : entries) out << e.markdown << "\n";
  return kExitOk;
}

}  // namespace kope::cli

// Cases, Journal entries, the incremental graph, curation and attempt contexts.
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <set>
#include <sstream>
#include <unordered_map>

#include "kope/memory/memory.h"
#include "kope/memory/share.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"
#include "kope/base/text.h"
#include "kope/base/format.h"

namespace kope::memory {

using nlohmann::json;
using store::Stmt;

std::string case_digest_text(const std::string& task, const std::string& tags, const std::string& layers,
                             const std::string& thought, const std::string& label, const std::string& status,
                             const std::string& feedback);

namespace {

std::string join(const std::vector<std::string>& v, const std::string& sep = " ") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::optional<double> jnum(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// A local Case's fingerprint replaces a different one stored under the same digest (which only an import can have
// put there: the digest is 64 bits of FNV-1a, so a collision can be forged); an imported one never replaces.
int64_t hardware_id_uncached(sqlite3* db, const std::string& digest, const json& fp, bool local) {
  Stmt(db, local ? "INSERT INTO memory_hardware(digest, fingerprint) VALUES(?,?) ON CONFLICT(digest) DO UPDATE SET "
                   "fingerprint=excluded.fingerprint WHERE fingerprint IS NOT excluded.fingerprint"
                 : "INSERT INTO memory_hardware(digest, fingerprint) VALUES(?,?) ON CONFLICT(digest) DO NOTHING")
      .bind(1, digest).bind(2, fp.dump()).run();
  Stmt s(db, "SELECT id FROM memory_hardware WHERE digest=?");
  s.bind(1, digest);
  s.step();
  return s.i64(0);
}

std::string feedback_of(const json& rep) {
  std::string out;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    if (!out.empty()) out += "\n";
    out += s;
  };
  const bool compiled = rep.value("compiled", false);
  const bool correct = rep.value("correct", false);
  if (rep.contains("errors"))
    for (const auto& e : rep["errors"])
      if (e.is_string()) add(e.get<std::string>());
  if (!compiled && rep.contains("compile")) {
    int n = 0;
    for (const auto& d : rep["compile"].value("diagnostics", json::array())) {
      if (d.value("severity", "") != "error" && d.value("severity", "") != "fatal error") continue;
      if (n++ == 3) break;
      add("line " + std::to_string(d.value("line", 0)) + ": " + d.value("message", ""));
    }
    if (n == 0) {
      std::string log = rep["compile"].value("log", "");
      add(log.substr(0, 600));
    }
  }
  if (rep.contains("cases")) {
    int failing = 0;
    std::string per_case;
    for (const auto& c : rep["cases"]) {
      if (!c.value("correct", false)) {
        if (failing++ < 3)
          add("case " + c.value("name", "?") + ": " + c.value("status", "?") + ": " + c.value("message", ""));
      } else if (correct) {
        auto s = jnum(c, "speedup");
        per_case += (per_case.empty() ? "" : ", ") + c.value("name", "?") + " " + (s ? format::fixed(*s) + "x" : "-");
        if (c.contains("speedup_ci95") && c["speedup_ci95"].is_array() && c["speedup_ci95"].size() == 2)
          per_case += " [" + format::fixed(c["speedup_ci95"][0].get<double>()) + ".." + format::fixed(c["speedup_ci95"][1].get<double>()) + "]";
      }
    }
    if (correct) {
      auto s = jnum(rep, "speedup");
      add("correct on all " + std::to_string(rep["cases"].size()) + " cases; speedup " + (s ? format::fixed(*s) + "x" : "-") +
          (per_case.empty() ? "" : " (" + per_case + ")"));
    }
  }
  if (rep.contains("warnings"))
    for (const auto& w : rep["warnings"])
      if (w.is_string()) add("warning: " + w.get<std::string>());
  if (out.size() > 2000) out = out.substr(0, 2000) + "...";
  if (out.empty()) out = rep.value("status", "unknown");
  return out;
}

std::pair<std::optional<double>, std::optional<double>> interval_of(const json& rep) {
  if (!rep.value("correct", false) || !rep.contains("cases")) return {};
  double llo = 0, lhi = 0;
  int n = 0;
  for (const auto& c : rep["cases"]) {
    if (!c.contains("speedup_ci95") || !c["speedup_ci95"].is_array() || c["speedup_ci95"].size() != 2) return {};
    double lo = c["speedup_ci95"][0].get<double>(), hi = c["speedup_ci95"][1].get<double>();
    if (!(lo > 0) || !(hi > 0)) return {};
    llo += std::log(lo);
    lhi += std::log(hi);
    ++n;
  }
  if (n == 0) return {};
  return {std::exp(llo / n), std::exp(lhi / n)};
}

CaseRow row_of(const Stmt& s, bool full) {
  // Columns of kCaseColumns, in order.
  CaseRow r;
  int i = 0;
  r.id = s.i64(i++);
  r.uid = s.text(i++);
  r.evaluation_id = s.opt_i64(i++);
  r.prev_case_id = s.opt_i64(i++);
  r.origin = s.null(i) ? "local" : s.text(i);
  ++i;
  r.task = s.text(i++);
  r.task_digest = s.text(i++);
  r.device = s.text(i++);
  r.hardware_digest = s.text(i++);
  r.kernel_id = s.opt_i64(i++);
  r.kernel_sha256 = s.text(i++);
  r.kernel_name = s.text(i++);
  r.thought = s.text(i++);
  r.tags = split_words(s.text(i++));
  r.layers = split_words(s.text(i++));
  r.status = s.text(i++);
  r.compiled = s.i64(i++) != 0;
  r.correct = s.i64(i++) != 0;
  r.a = s.f64(i++);
  r.c = s.f64(i++);
  r.interval_lo = s.opt_f64(i++);
  r.interval_hi = s.opt_f64(i++);
  r.run_id = s.opt_i64(i++);
  r.step = s.i64(i++);
  r.created_at = s.text(i++);
  r.depth = static_cast<int>(s.i64(i++));
  r.r = s.f64(i++);
  r.label = s.text(i++);
  r.d = s.f64(i++);
  r.pruned = s.i64(i++) != 0;
  r.pinned = s.i64(i++) != 0;
  r.flag = s.text(i++);
  if (full) {
    r.diff = s.text(i++);
    r.feedback = s.text(i++);
    // Stored JSON nested deeper than an import accepts is not read back (its copies would recurse per level).
    auto parsed = [](const std::optional<std::string>& t) {
      if (!t || !json_nesting_within(*t, kImportMaxDepth)) return json(nullptr);
      json j = json::parse(*t, nullptr, false);
      return j.is_discarded() ? json(nullptr) : j;
    };
    r.scene = parsed(s.opt_text(i++));
    r.hardware = parsed(s.opt_text(i++));
  }
  return r;
}

const char* kCaseColumns =
    "c.id, c.uid, c.evaluation_id, c.prev_case_id, o.workspace_id, c.task, c.task_digest, c.device, "
    "COALESCE(h.digest,''), c.kernel_id, c.kernel_sha256, c.kernel_name, c.thought, c.tags, c.layers, c.status, "
    "c.compiled, c.correct, c.a, c.c, c.interval_lo, c.interval_hi, c.run_id, c.step, c.created_at, c.depth, c.r, "
    "c.label, c.d, c.pruned, c.pinned, COALESCE(c.flag,'') ";
const char* kCaseFrom =
    "FROM memory_cases c LEFT JOIN memory_origins o ON o.id = c.origin_id "
    "LEFT JOIN memory_hardware h ON h.id = c.hardware_id ";

}  // namespace

double confidence_of(const json& rep) {
  if (!rep.value("correct", false) || !rep.contains("cases") || rep["cases"].empty()) return 0.0;
  std::vector<double> widths;
  for (const auto& c : rep["cases"]) {
    auto s = jnum(c, "speedup");
    if (!s || !(*s > 0) || !c.contains("speedup_ci95") || !c["speedup_ci95"].is_array() ||
        c["speedup_ci95"].size() != 2)
      return 0.0;
    widths.push_back((c["speedup_ci95"][1].get<double>() - c["speedup_ci95"][0].get<double>()) / *s);
  }
  std::sort(widths.begin(), widths.end());
  const std::size_t n = widths.size();
  const double med = n % 2 ? widths[n / 2] : 0.5 * (widths[n / 2 - 1] + widths[n / 2]);
  return std::clamp(1.0 - med, 0.0, 1.0);
}

std::string current_user() {
  for (const char* v : {"USER", "LOGNAME"})
    if (const char* u = std::getenv(v); u && *u) return u;
  return "unknown";
}

std::string journal_markdown(const CaseInput& in, int64_t case_id, double r, const std::string& label,
                             std::optional<double> prev_a) {
  std::ostringstream m;
  const auto tags = in.tags.empty() ? idea_tags(in.thought) : in.tags;
  m << "## Case " << case_id << " · " << in.task << " · " << in.device << " · "
    << (in.created_at.empty() ? store::now_utc() : in.created_at) << "\n\n";
  m << "- **Strategy:** " << (in.thought.empty() ? "(no thought given)" : in.thought);
  if (!tags.empty()) m << " — tags: " << join(tags, ", ");
  m << "\n";
  m << "- **Kernel:** " << in.kernel_name << " (sha256 " << in.kernel_sha256.substr(0, 12) << ")";
  if (in.run_id) m << ", run " << *in.run_id << " step " << in.step;
  m << "\n";
  const auto [add, del] = diff_stat(in.diff);
  m << "- **Code change:** ";
  if (in.prev_case_id) m << "from case " << *in.prev_case_id << ", ";
  else m << "from the baseline, ";
  m << "+" << add << " -" << del << " lines\n";
  m << "- **Validation:** " << in.status << (in.compiled ? "" : " (did not compile)") << "\n";
  m << "- **Measurements:** ";
  if (in.correct) {
    m << "speedup " << format::fixed(in.a) << "x";
    if (in.interval_lo && in.interval_hi) m << " [" << format::fixed(*in.interval_lo) << " .. " << format::fixed(*in.interval_hi) << "]";
    m << ", confidence " << format::fixed(in.c);
  } else {
    m << "none (incorrect)";
  }
  m << "\n";
  std::string fb = in.feedback;
  std::replace(fb.begin(), fb.end(), '\n', ' ');
  if (fb.size() > 600) fb = fb.substr(0, 600) + "...";
  m << "- **Feedback:** " << fb << "\n";
  m << "- **Interpretation:** ";
  if (!in.correct) {
    m << "this idea was wrong because " << fb;
  } else {
    m << label << " step: r = " << format::fixed(r, 3);
    if (prev_a) m << " (" << format::fixed(*prev_a) << "x -> " << format::fixed(in.a) << "x)";
    else m << " against the baseline";
    if (label == "negative" || label == "ineffective") m << "; this idea made the kernel slower";
  }
  m << "\n";
  return m.str();
}

void MemoryStore::note_scene(const std::string& task, const std::string& task_digest, const json& scene) {
  // The task's own scene replaces whatever an import said about the same digest.
  Stmt(db_, "INSERT INTO memory_scenes(task_digest, task, scene) VALUES(?,?,?) ON CONFLICT(task_digest) DO UPDATE "
            "SET task=excluded.task, scene=excluded.scene WHERE scene IS NOT excluded.scene OR task IS NOT excluded.task")
      .bind(1, task_digest).bind(2, task).bind(3, scene.dump()).run();
}

std::optional<int64_t> MemoryStore::case_of_evaluation(int64_t evaluation_id) const {
  auto s = stmt("SELECT id FROM memory_cases WHERE evaluation_id=?");
  s->bind(1, evaluation_id);
  if (!s->step()) return std::nullopt;
  return s->i64(0);
}

std::optional<int64_t> MemoryStore::case_by_uid(const std::string& uid) const {
  auto s = stmt("SELECT id FROM memory_cases WHERE uid=?");
  s->bind(1, uid);
  if (!s->step()) return std::nullopt;
  return s->i64(0);
}

std::optional<int64_t> MemoryStore::record_evaluation(int64_t evaluation_id, const json* report) {
  if (auto existing = case_of_evaluation(evaluation_id)) return existing;
  Stmt s(db_, "SELECT e.run_id, e.kernel_id, e.prev_evaluation_id, e.task, e.task_digest, e.device, e.status, "
              "COALESCE(e.finished_at, e.started_at), e.report, k.sha256, k.source, k.origin, k.thought "
              "FROM evaluations e JOIN kernels k ON k.id = e.kernel_id WHERE e.id=?");
  s.bind(1, evaluation_id);
  if (!s.step()) return std::nullopt;
  const std::string status = s.text(6);
  // A cancelled evaluation says nothing about its kernel: no Case (so it is never retrieved, never a failure mode).
  if (status == "running" || status == "interrupted" || status == "error" || status == "cancelled" || s.null(8))
    return std::nullopt;
  json parsed;
  if (!report) {
    parsed = json::parse(s.text(8), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    report = &parsed;
  }
  CaseInput in;
  in.evaluation_id = evaluation_id;
  in.run_id = s.i64(0);
  in.kernel_id = s.i64(1);
  const auto prev_eval = s.opt_i64(2);
  in.task = s.text(3);
  in.task_digest = s.text(4);
  in.device = s.text(5);
  in.status = status;
  in.created_at = s.text(7);
  in.kernel_sha256 = s.text(9);
  const std::string source = s.text(10);
  in.kernel_name = s.text(11);
  in.thought = s.text(12);
  in.tags = idea_tags(in.thought, source);
  std::string prev_source, prev_name = "baseline";
  if (prev_eval) {
    in.prev_case_id = case_of_evaluation(*prev_eval);
    Stmt p(db_, "SELECT k.source, k.origin FROM evaluations e JOIN kernels k ON k.id = e.kernel_id WHERE e.id=?");
    p.bind(1, *prev_eval);
    if (p.step()) {
      prev_source = p.text(0);
      prev_name = p.text(1);
    }
  }
  in.diff = unified_diff(prev_source, source, "a/" + prev_name, "b/" + in.kernel_name);
  in.compiled = report->value("compiled", false);
  in.correct = report->value("correct", false);
  const auto speedup = jnum(*report, "speedup");
  in.a = in.correct && speedup ? *speedup : 0.0;
  in.c = confidence_of(*report);
  std::tie(in.interval_lo, in.interval_hi) = interval_of(*report);
  in.feedback = feedback_of(*report);
  {
    Stmt st(db_, "SELECT COUNT(*) FROM evaluations WHERE run_id=? AND task=? AND id<=?");
    st.bind(1, *in.run_id).bind(2, in.task).bind(3, evaluation_id);
    st.step();
    in.step = st.i64(0);
  }
  return add_case(in);
}

int64_t MemoryStore::add_case(const CaseInput& in) {
  store::Txn txn(db_);
  const GraphWeights w = weights();
  int64_t id;
  {
    auto s = stmt("SELECT COALESCE(MAX(id), 0) + 1 FROM memory_cases");
    s->step();
    id = s->i64(0);
  }
  const std::string uid = in.uid.empty() ? workspace_id() + ":" + std::to_string(id) : in.uid;
  std::optional<double> prev_a;
  int depth = 0;
  if (in.prev_case_id) {
    auto p = stmt("SELECT a, depth FROM memory_cases WHERE id=?");
    p->bind(1, *in.prev_case_id);
    if (!p->step())
      throw Error("memory: case " + std::to_string(*in.prev_case_id) + " (the predecessor) does not exist");
    prev_a = p->f64(0);
    depth = static_cast<int>(p->i64(1)) + 1;
  }
  const double r = step_ratio(in.a, prev_a);
  const Outcome o = outcome_of(r);
  const std::string label = outcome_name(o);
  const double d = downstream(r, 0.0, w);
  const auto tags = in.tags.empty() ? idea_tags(in.thought) : in.tags;
  const auto layers = layers_of(tags);
  const std::string created = in.created_at.empty() ? store::now_utc() : in.created_at;
  const json& fp = in.hardware.is_null() ? hardware_fingerprint() : in.hardware;
  const std::string digest = fingerprint_digest(fp);
  auto hw_it = hardware_ids_.find(digest);
  if (hw_it != hardware_ids_.end()) {  // a rolled-back transaction (a refused import) may have taken the row away
    auto still = stmt("SELECT 1 FROM memory_hardware WHERE id=?");
    still->bind(1, hw_it->second);
    if (!still->step()) {
      hardware_ids_.erase(hw_it);
      hw_it = hardware_ids_.end();
    }
  }
  if (hw_it == hardware_ids_.end())
    hw_it = hardware_ids_.emplace(digest, hardware_id_uncached(db_, digest, fp, !in.origin_id)).first;
  const int64_t hw = hw_it->second;
  {
    auto ins = stmt(
        "INSERT INTO memory_cases(id, uid, evaluation_id, origin_id, prev_case_id, task, task_digest, device, "
        "hardware_id, kernel_id, kernel_sha256, kernel_name, thought, tags, layers, diff, status, compiled, "
        "correct, feedback, a, c, interval_lo, interval_hi, run_id, step, created_at, depth, r, label, bucket, d, "
        "score, pruned, flag) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    ins->bind_all(id, uid, in.evaluation_id, in.origin_id, in.prev_case_id, in.task, in.task_digest, in.device, hw,
                  in.kernel_id, in.kernel_sha256, in.kernel_name, in.thought, join(tags), join(layers), in.diff,
                  in.status, in.compiled, in.correct, in.feedback, in.a, in.c, in.interval_lo, in.interval_hi,
                  in.run_id, in.step, created, depth, r, label, bucket_of(in.correct, o), d, d * in.c, in.pruned,
                  in.flag.empty() ? std::optional<std::string>() : std::optional<std::string>(in.flag));
    ins->run();
  }
  for (const auto& tag : tags) {
    auto t = stmt("INSERT OR IGNORE INTO memory_case_tags(tag, case_id) VALUES(?,?)");
    t->bind(1, tag).bind(2, id).run();
  }
  CaseInput jin = in;
  jin.created_at = created;
  jin.tags = tags;
  const std::string md = in.journal.empty() ? journal_markdown(jin, id, r, label, prev_a) : in.journal;
  append_journal(id, in.task, in.origin_id ? "import" : "attempt", md);
  if (fts_) {
    auto f = stmt("INSERT INTO memory_fts(rowid, task, digest, journal) VALUES(?,?,?,?)");
    f->bind(1, id).bind(2, in.task);
    f->bind(3, case_digest_text(in.task, join(tags), join(layers), in.thought, label, in.status, in.feedback));
    f->bind(4, md).run();
  }
  if (in.prev_case_id) update_ancestors(*in.prev_case_id, w);
  txn.commit();
  return id;
}

void MemoryStore::update_ancestors(int64_t parent, const GraphWeights& w) {
  auto kids_c = stmt("SELECT d FROM memory_cases WHERE prev_case_id=? ORDER BY id");
  auto node_c = stmt("SELECT r, d, c, prev_case_id FROM memory_cases WHERE id=?");
  auto upd_c = stmt("UPDATE memory_cases SET d=?, score=? WHERE id=?");
  Stmt &kids = *kids_c, &node = *node_c, &upd = *upd_c;
  std::optional<int64_t> p = parent;
  while (p) {
    node.reset();
    node.bind(1, *p);
    if (!node.step()) break;
    const double r = node.f64(0), old_d = node.f64(1), c = node.f64(2);
    const auto next = node.opt_i64(3);
    double sum = 0.0;
    kids.reset();
    kids.bind(1, *p);
    while (kids.step()) sum += kids.f64(0);
    const double d = downstream(r, sum, w);
    if (d == old_d) break;  // nothing above changes either
    upd.reset();
    upd.bind(1, d).bind(2, d * c).bind(3, *p).run();
    p = next;
  }
}

int64_t MemoryStore::rebuild_graph() {
  store::Txn txn(db_);
  const GraphWeights w = weights();
  std::vector<GraphNode> nodes;
  std::vector<double> conf;
  std::vector<bool> correct;
  std::vector<std::pair<double, double>> old;
  {
    Stmt s(db_, "SELECT id, prev_case_id, a, c, correct, r, d FROM memory_cases ORDER BY id");
    while (s.step()) {
      GraphNode n;
      n.id = s.i64(0);
      n.parent = s.opt_i64(1);
      n.a = s.f64(2);
      nodes.push_back(n);
      conf.push_back(s.f64(3));
      correct.push_back(s.i64(4) != 0);
      old.push_back({s.f64(5), s.f64(6)});
    }
  }
  rebuild_forest(nodes, w);
  Stmt upd(db_, "UPDATE memory_cases SET r=?, label=?, bucket=?, d=?, score=? WHERE id=?");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (n.r == old[i].first && n.d == old[i].second) continue;
    const Outcome o = outcome_of(n.r);
    upd.reset();
    upd.bind(1, n.r).bind(2, outcome_name(o)).bind(3, bucket_of(correct[i], o)).bind(4, n.d).bind(5, n.d * conf[i]);
    upd.bind(6, n.id).run();
  }
  txn.commit();
  return static_cast<int64_t>(nodes.size());
}

std::optional<CaseRow> MemoryStore::get_case(int64_t id) const {
  Stmt s(db_, std::string("SELECT ") + kCaseColumns + ", c.diff, c.feedback, sc.scene, h.fingerprint " + kCaseFrom +
                  "LEFT JOIN memory_scenes sc ON sc.task_digest = c.task_digest WHERE c.id=?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return row_of(s, true);
}

std::vector<CaseRow> MemoryStore::cases(const CaseFilter& f) const {
  std::string sql = std::string("SELECT ") + kCaseColumns + kCaseFrom + "WHERE 1=1 ";
  if (f.task) sql += "AND c.task=? ";
  if (f.device) sql += "AND c.device=? ";
  if (f.label) sql += "AND c.label=? ";
  if (!f.include_excluded) sql += "AND c.pruned=0 AND c.flag IS NULL ";
  if (f.after_id) sql += "AND c.id > ? ";
  if (!f.ids.empty()) {
    sql += "AND c.id IN (?";
    for (std::size_t k = 1; k < f.ids.size(); ++k) sql += ",?";
    sql += ") ";
  }
  sql += "ORDER BY c.id DESC LIMIT ?";
  Stmt s(db_, sql);
  int i = 1;
  if (f.task) s.bind(i++, *f.task);
  if (f.device) s.bind(i++, *f.device);
  if (f.label) s.bind(i++, *f.label);
  if (f.after_id) s.bind(i++, *f.after_id);
  for (int64_t id : f.ids) s.bind(i++, id);
  s.bind(i, static_cast<int64_t>(f.limit));
  std::vector<CaseRow> out;
  while (s.step()) out.push_back(row_of(s, false));
  return out;
}

std::vector<int64_t> MemoryStore::children(int64_t id) const {
  Stmt s(db_, "SELECT id FROM memory_cases WHERE prev_case_id=? ORDER BY id");
  s.bind(1, id);
  std::vector<int64_t> out;
  while (s.step()) out.push_back(s.i64(0));
  return out;
}

int64_t MemoryStore::count_cases() const {
  Stmt s(db_, "SELECT COUNT(*) FROM memory_cases");
  s.step();
  return s.i64(0);
}

ChangeStamp MemoryStore::change_stamp() const {
  auto s = stmt("SELECT COALESCE(MAX(id),0), COUNT(*), (SELECT COALESCE(MAX(id),0) FROM memory_curation) "
                "FROM memory_cases");
  s->step();
  return {s->i64(0), s->i64(1), s->i64(2)};
}

int64_t MemoryStore::append_journal(std::optional<int64_t> case_id, const std::string& task, const std::string& kind,
                                    const std::string& markdown) {
  auto s = stmt("INSERT INTO memory_journal(case_id, task, kind, created_at, markdown) VALUES(?,?,?,?,?)");
  s->bind_all(case_id, task, kind, store::now_utc(), markdown);
  s->run();
  return store::last_insert_id(db_);
}

std::vector<JournalEntry> MemoryStore::journal(const std::optional<std::string>& task, std::optional<int64_t> case_id,
                                               int limit) const {
  std::string sql = "SELECT id, case_id, task, kind, created_at, markdown FROM memory_journal WHERE 1=1 ";
  if (task) sql += "AND task=? ";
  if (case_id) sql += "AND case_id=? ";
  sql += "ORDER BY id LIMIT ?";
  Stmt s(db_, sql);
  int i = 1;
  if (task) s.bind(i++, *task);
  if (case_id) s.bind(i++, *case_id);
  s.bind(i, static_cast<int64_t>(limit));
  std::vector<JournalEntry> out;
  while (s.step()) out.push_back({s.i64(0), s.opt_i64(1), s.text(2), s.text(3), s.text(4), s.text(5)});
  return out;
}

std::optional<int64_t> MemoryStore::case_of_journal(int64_t journal_id) const {
  Stmt s(db_, "SELECT case_id FROM memory_journal WHERE id=?");
  s.bind(1, journal_id);
  if (!s.step()) return std::nullopt;
  return s.opt_i64(0);
}

std::map<std::string, KnownFailure> MemoryStore::known_failures(const std::string& task,
                                                                const std::string& device) const {
  std::map<std::string, std::pair<int64_t, bool>> latest;  // sha -> (case, correct)
  {
    // Local Cases only: "failed here before" is this workspace's evidence; an import cannot make a kernel skipped.
    Stmt s(db_, "SELECT kernel_sha256, id, correct FROM memory_cases WHERE task=? AND device=? AND pruned=0 "
                "AND flag IS NULL AND origin_id IS NULL ORDER BY id");
    s.bind(1, task).bind(2, device);
    while (s.step()) latest[s.text(0)] = {s.i64(1), s.i64(2) != 0};
  }
  std::map<std::string, KnownFailure> out;
  Stmt f(db_, "SELECT status, feedback FROM memory_cases WHERE id=?");
  for (const auto& [sha, v] : latest) {
    if (v.second) continue;
    f.reset();
    f.bind(1, v.first);
    f.step();
    out[sha] = {v.first, f.text(0), f.text(1)};
  }
  return out;
}

void MemoryStore::record_context(int64_t evaluation_id, const std::vector<ContextRow>& rows) {
  store::Txn txn(db_);
  Stmt s(db_, "INSERT OR REPLACE INTO attempt_context(evaluation_id, rank, case_id, provenance, kind, score) "
              "VALUES(?,?,?,?,?,?)");
  for (const auto& r : rows) {
    s.reset();
    s.bind(1, evaluation_id).bind(2, r.rank).bind(3, r.case_id).bind(4, r.provenance).bind(5, r.kind).bind(6, r.score);
    s.run();
  }
  txn.commit();
}

std::vector<ContextRow> MemoryStore::context(int64_t evaluation_id) const {
  Stmt s(db_, "SELECT evaluation_id, rank, case_id, provenance, kind, score FROM attempt_context WHERE evaluation_id=? "
              "ORDER BY rank");
  s.bind(1, evaluation_id);
  std::vector<ContextRow> out;
  while (s.step())
    out.push_back({s.i64(0), static_cast<int>(s.i64(1)), s.i64(2), s.text(3), s.text(4), s.f64(5)});
  return out;
}

}  // namespace kope::memory

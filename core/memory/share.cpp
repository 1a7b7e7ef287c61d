// JSON Lines export/import of memory (foreign memory keeps its origin) and the graph as GraphML and DOT.
#include "kope/memory/share.h"

#include <sqlite3.h>

#include <fstream>
#include <locale>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"

namespace kope::memory {

using nlohmann::json;
using store::Stmt;

namespace {
json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }
}  // namespace

ExportStats export_jsonl(const MemoryStore& store, std::ostream& out) {
  sqlite3* db = store.db();
  ExportStats st;
  out << json{{"kind", "kope-memory"}, {"schema", kExportSchema}, {"workspace_id", store.workspace_id()},
              {"hardware", fingerprint_digest(hardware_fingerprint())}, {"exported_at", store::now_utc()},
              {"cases", store.count_cases()}}.dump()
      << "\n";
  {
    Stmt h(db, "SELECT digest, fingerprint FROM memory_hardware ORDER BY id");
    while (h.step())
      out << json{{"kind", "hardware"}, {"digest", h.text(0)}, {"fingerprint", json::parse(h.text(1), nullptr, false)}}
                 .dump()
          << "\n";
  }
  Stmt s(db, "SELECT c.id, c.uid, p.uid, o.workspace_id, c.task, c.task_digest, c.device, h.digest, c.kernel_sha256, "
             "c.kernel_name, c.thought, c.tags, c.diff, c.status, c.compiled, c.correct, c.feedback, c.a, c.c, "
             "c.interval_lo, c.interval_hi, c.run_id, c.step, c.created_at, c.pruned, COALESCE(c.flag,''), "
             "k.source, sc.scene "
             "FROM memory_cases c LEFT JOIN memory_cases p ON p.id = c.prev_case_id "
             "LEFT JOIN memory_origins o ON o.id = c.origin_id LEFT JOIN memory_hardware h ON h.id = c.hardware_id "
             "LEFT JOIN kernels k ON k.id = c.kernel_id LEFT JOIN memory_scenes sc ON sc.task_digest = c.task_digest "
             "ORDER BY c.id");
  Stmt j(db, "SELECT markdown FROM memory_journal WHERE case_id=? ORDER BY id");
  while (s.step()) {
    json c = {{"kind", "case"}, {"uid", s.text(1)}, {"prev_uid", s.null(2) ? json(nullptr) : json(s.text(2))},
              {"origin", s.null(3) ? store.workspace_id() : s.text(3)}, {"task", s.text(4)},
              {"task_digest", s.text(5)}, {"device", s.text(6)}, {"hardware", s.text(7)},
              {"kernel_sha256", s.text(8)}, {"kernel_name", s.text(9)}, {"thought", s.text(10)},
              {"tags", s.text(11)}, {"diff", s.text(12)}, {"status", s.text(13)}, {"compiled", s.i64(14) != 0},
              {"correct", s.i64(15) != 0}, {"feedback", s.text(16)}, {"a", s.f64(17)}, {"c", s.f64(18)},
              {"interval_lo", opt(s.opt_f64(19))}, {"interval_hi", opt(s.opt_f64(20))}, {"run_id", opt(s.opt_i64(21))},
              {"step", s.i64(22)}, {"created_at", s.text(23)}, {"pruned", s.i64(24) != 0}, {"flag", s.text(25)},
              {"source", s.null(26) ? json(nullptr) : json(s.text(26))},
              {"scene", s.null(27) ? json(nullptr) : json::parse(s.text(27), nullptr, false)}};
    json journal = json::array();
    j.reset();
    j.bind(1, s.i64(0));
    while (j.step()) journal.push_back(j.text(0));
    st.journal += static_cast<int64_t>(journal.size());
    c["journal"] = journal;
    out << c.dump() << "\n";
    ++st.cases;
  }
  return st;
}

namespace {

struct LineError {
  std::string where;
  [[noreturn]] void fail(const std::string& what) const { throw Error(where + ": " + what); }
  std::string str(const json& j, const char* k, bool required = true) const {
    auto it = j.find(k);
    if (it == j.end() || it->is_null()) {
      if (required) fail(std::string("missing field \"") + k + "\"");
      return {};
    }
    if (!it->is_string()) fail(std::string("field \"") + k + "\" must be a string");
    return it->get<std::string>();
  }
  double num(const json& j, const char* k) const {
    auto it = j.find(k);
    if (it == j.end() || !it->is_number()) fail(std::string("field \"") + k + "\" must be a number");
    return it->get<double>();
  }
  std::optional<double> opt_num(const json& j, const char* k) const {
    auto it = j.find(k);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) fail(std::string("field \"") + k + "\" must be a number or null");
    return it->get<double>();
  }
  bool boolean(const json& j, const char* k) const {
    auto it = j.find(k);
    if (it == j.end() || !it->is_boolean()) fail(std::string("field \"") + k + "\" must be true or false");
    return it->get<bool>();
  }
};

}  // namespace

ImportStats import_jsonl(MemoryStore& store, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("memory file '" + file.string() + "': cannot be read");
  sqlite3* db = store.db();
  ImportStats st;
  store::Txn txn(db);
  const std::string self = store.workspace_id();
  std::map<std::string, json> hardware;
  std::map<std::string, int64_t> origins;  // workspace uuid -> memory_origins id
  std::string line;
  int64_t n = 0;
  bool header = false;
  json head;
  while (std::getline(in, line)) {
    ++n;
    LineError E{"memory file '" + file.string() + "' line " + std::to_string(n)};
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) E.fail("not a JSON object (truncated or garbled?)");
    const std::string kind = E.str(j, "kind");
    if (!header) {
      if (kind != "kope-memory") E.fail("the first line must be the kope-memory header, found kind \"" + kind + "\"");
      auto schema = j.find("schema");
      if (schema == j.end() || !schema->is_number_integer()) E.fail("header has no schema version");
      if (schema->get<int>() != kExportSchema)
        E.fail("schema version " + std::to_string(schema->get<int>()) + " is not supported (this kope reads " +
               std::to_string(kExportSchema) + ")");
      st.origin = E.str(j, "workspace_id");
      head = j;
      header = true;
      continue;
    }
    if (kind == "hardware") {
      auto fp = j.find("fingerprint");
      if (fp == j.end() || !fp->is_object()) E.fail("hardware line without a fingerprint object");
      hardware[E.str(j, "digest")] = *fp;
      continue;
    }
    if (kind != "case") E.fail("unknown line kind \"" + kind + "\"");
    const std::string uid = E.str(j, "uid");
    if (store.case_by_uid(uid)) {
      ++st.skipped;
      continue;
    }
    const std::string origin = E.str(j, "origin");
    if (origin == self) E.fail("case " + uid + " comes from this workspace but is not in it");
    CaseInput c;
    c.uid = uid;
    c.task = E.str(j, "task");
    c.task_digest = E.str(j, "task_digest", false);
    c.device = E.str(j, "device");
    const std::string hw = E.str(j, "hardware", false);
    if (!hw.empty()) {
      auto it = hardware.find(hw);
      if (it == hardware.end()) E.fail("case " + uid + " refers to hardware " + hw + " not declared before it");
      c.hardware = it->second;
    } else {
      c.hardware = json::object();
    }
    if (auto it = origins.find(origin); it != origins.end()) {
      c.origin_id = it->second;
    } else {
      Stmt(db, "INSERT INTO memory_origins(workspace_id, device, hardware_id, file, imported_at) "
               "VALUES(?,?,NULL,?,?) ON CONFLICT(workspace_id) DO UPDATE SET file=excluded.file")
          .bind(1, origin).bind(2, c.device).bind(3, file.string()).bind(4, store::now_utc()).run();
      Stmt q(db, "SELECT id FROM memory_origins WHERE workspace_id=?");
      q.bind(1, origin);
      q.step();
      c.origin_id = origins[origin] = q.i64(0);
    }
    const std::string prev = E.str(j, "prev_uid", false);
    if (!prev.empty()) {
      c.prev_case_id = store.case_by_uid(prev);
      if (!c.prev_case_id) E.fail("case " + uid + " starts from " + prev + ", which is neither earlier in the file nor here");
    }
    c.kernel_sha256 = E.str(j, "kernel_sha256");
    c.kernel_name = E.str(j, "kernel_name");
    c.thought = E.str(j, "thought", false);
    {
      std::istringstream tags(E.str(j, "tags", false));
      std::string t;
      while (tags >> t) c.tags.push_back(t);
    }
    c.diff = E.str(j, "diff", false);
    c.status = E.str(j, "status");
    c.compiled = E.boolean(j, "compiled");
    c.correct = E.boolean(j, "correct");
    c.feedback = E.str(j, "feedback", false);
    c.a = E.num(j, "a");
    c.c = E.num(j, "c");
    c.interval_lo = E.opt_num(j, "interval_lo");
    c.interval_hi = E.opt_num(j, "interval_hi");
    if (auto r = E.opt_num(j, "run_id")) c.run_id = static_cast<int64_t>(*r);
    c.step = static_cast<int64_t>(E.num(j, "step"));
    c.created_at = E.str(j, "created_at", false);
    c.pruned = j.value("pruned", false);
    c.flag = E.str(j, "flag", false);
    if (!c.flag.empty() && c.flag != "cheat" && c.flag != "invalid") E.fail("unknown flag \"" + c.flag + "\"");
    const std::string source = E.str(j, "source", false);
    if (!source.empty()) {
      Stmt(db, "INSERT INTO kernels(task, sha256, source, origin, thought, created_at) VALUES(?,?,?,?,?,?) "
               "ON CONFLICT(task, sha256) DO NOTHING")
          .bind(1, c.task).bind(2, c.kernel_sha256).bind(3, source).bind(4, "memory-import:" + origin + ":" + c.kernel_name)
          .bind(5, c.thought).bind(6, store::now_utc()).run();
      Stmt k(db, "SELECT id FROM kernels WHERE task=? AND sha256=?");
      k.bind(1, c.task).bind(2, c.kernel_sha256);
      if (k.step()) c.kernel_id = k.i64(0);
    }
    auto scene = j.find("scene");
    if (scene != j.end() && scene->is_array() && !c.task_digest.empty()) store.note_scene(c.task, c.task_digest, *scene);
    std::vector<std::string> journal;
    if (auto jr = j.find("journal"); jr != j.end()) {
      if (!jr->is_array()) E.fail("field \"journal\" must be an array of Markdown strings");
      for (const auto& e : *jr) {
        if (!e.is_string()) E.fail("field \"journal\" must be an array of Markdown strings");
        journal.push_back(e.get<std::string>());
      }
    }
    if (!journal.empty()) c.journal = journal.front();
    const int64_t id = store.add_case(c);
    for (std::size_t i = 1; i < journal.size(); ++i) store.append_journal(id, c.task, "import", journal[i]);
    ++st.added;
  }
  if (!header) throw Error("memory file '" + file.string() + "' is empty: no kope-memory header");
  if (in.bad()) throw Error("memory file '" + file.string() + "': read error");
  txn.commit();
  return st;
}

namespace {

std::string xml(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += c;
    }
  }
  return o;
}

std::string dot_str(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o += c;
  }
  return o;
}

std::vector<CaseRow> graph_cases(const MemoryStore& store, const GraphExportOptions& o) {
  CaseFilter f;
  f.task = o.task;
  f.include_excluded = o.include_excluded;
  f.limit = 1 << 30;
  auto rows = store.cases(f);
  std::reverse(rows.begin(), rows.end());
  return rows;
}

}  // namespace

void export_graphml(const MemoryStore& store, std::ostream& os, const GraphExportOptions& o) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out.precision(17);
  const auto rows = graph_cases(store, o);
  std::set<int64_t> ids;
  for (const auto& r : rows) ids.insert(r.id);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
         "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n";
  const std::vector<std::pair<const char*, const char*>> keys = {
      {"label", "string"}, {"task", "string"}, {"device", "string"}, {"origin", "string"}, {"kernel", "string"},
      {"thought", "string"}, {"tags", "string"}, {"status", "string"}, {"outcome", "string"}, {"correct", "boolean"},
      {"a", "double"}, {"c", "double"}, {"r", "double"}, {"d", "double"}, {"step", "long"}, {"pruned", "boolean"},
      {"pinned", "boolean"}, {"flag", "string"}};
  for (const auto& [k, t] : keys)
    out << "  <key id=\"" << k << "\" for=\"node\" attr.name=\"" << k << "\" attr.type=\"" << t << "\"/>\n";
  out << "  <key id=\"er\" for=\"edge\" attr.name=\"r\" attr.type=\"double\"/>\n";
  out << "  <graph id=\"memory\" edgedefault=\"directed\">\n";
  for (const auto& r : rows) {
    out << "    <node id=\"n" << r.id << "\">";
    auto data = [&](const char* k, const std::string& v) { out << "<data key=\"" << k << "\">" << xml(v) << "</data>"; };
    std::ostringstream num;
    num.imbue(std::locale::classic());
    auto dbl = [&](const char* k, double v) {
      num.str("");
      num << v;
      data(k, num.str());
    };
    std::string tags;
    for (const auto& t : r.tags) tags += (tags.empty() ? "" : " ") + t;
    data("label", std::to_string(r.id) + " " + r.task + " " + r.label);
    data("task", r.task);
    data("device", r.device);
    data("origin", r.origin);
    data("kernel", r.kernel_name);
    data("thought", r.thought);
    data("tags", tags);
    data("status", r.status);
    data("outcome", r.label);
    data("correct", r.correct ? "true" : "false");
    dbl("a", r.a);
    dbl("c", r.c);
    dbl("r", r.r);
    dbl("d", r.d);
    data("step", std::to_string(r.step));
    data("pruned", r.pruned ? "true" : "false");
    data("pinned", r.pinned ? "true" : "false");
    data("flag", r.flag);
    out << "</node>\n";
  }
  for (const auto& r : rows)
    if (r.prev_case_id && ids.count(*r.prev_case_id))
      out << "    <edge id=\"e" << r.id << "\" source=\"n" << *r.prev_case_id << "\" target=\"n" << r.id
          << "\"><data key=\"er\">" << r.r << "</data></edge>\n";
  out << "  </graph>\n</graphml>\n";
  os << out.str();
}

void export_dot(const MemoryStore& store, std::ostream& os, const GraphExportOptions& o) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  const auto rows = graph_cases(store, o);
  std::set<int64_t> ids;
  for (const auto& r : rows) ids.insert(r.id);
  out << "digraph memory {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
  for (const auto& r : rows) {
    const char* color = !r.correct ? "#f4a6a6"
                        : r.label == "effective" ? "#a6e3a1"
                        : r.label == "partial" ? "#d9f0c2"
                        : r.label == "ineffective" ? "#f9e2af" : "#fab387";
    std::ostringstream label;
    label.imbue(std::locale::classic());
    label.precision(3);
    label << r.id << " " << r.task << "\n" << r.kernel_name << "\n" << r.status << (r.correct ? "" : " (incorrect)")
          << "\na=" << r.a << " r=" << r.r << " " << r.label << "\nd=" << r.d << " c=" << r.c;
    if (r.pruned) label << "\npruned";
    if (!r.flag.empty()) label << "\n" << r.flag;
    out << "  n" << r.id << " [label=\"" << dot_str(label.str()) << "\", fillcolor=\"" << color << "\""
        << (r.pruned || !r.flag.empty() ? ", style=\"rounded,filled,dashed\"" : "") << (r.pinned ? ", penwidth=3" : "")
        << "];\n";
  }
  for (const auto& r : rows)
    if (r.prev_case_id && ids.count(*r.prev_case_id)) out << "  n" << *r.prev_case_id << " -> n" << r.id << ";\n";
  out << "}\n";
  os << out.str();
}

}  // namespace kope::memory

// JSON Lines export of memory (the import is import.cpp) and the graph as GraphML and DOT.
#include "kope/memory/share.h"

#include <sqlite3.h>

#include <fstream>
#include <locale>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"
#include "kope/base/text.h"

namespace kope::memory {

using nlohmann::json;
using store::Stmt;

namespace {
json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json opt(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }
// Stored JSON (a fingerprint, a scene) read back; null when unreadable or nested deeper than an import accepts.
json stored_json(const std::string& text) {
  if (!json_nesting_within(text, kImportMaxDepth)) return nullptr;
  json j = json::parse(text, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}
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
      out << dump_json(json{{"kind", "hardware"}, {"digest", h.text(0)}, {"fingerprint", stored_json(h.text(1))}})
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
              {"scene", s.null(27) ? json(nullptr) : stored_json(s.text(27))}};
    json journal = json::array();
    j.reset();
    j.bind(1, s.i64(0));
    while (j.step()) journal.push_back(j.text(0));
    st.journal += static_cast<int64_t>(journal.size());
    c["journal"] = journal;
    out << dump_json(c) << "\n";  // text stored before it was checked may hold invalid UTF-8: escaped, not thrown
    ++st.cases;
  }
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

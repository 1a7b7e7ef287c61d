// Importing another workspace's memory export: every line is checked field by field (sizes, UTF-8, names as
// names, hashes against texts, numbers in range, nesting) before it is written, only foreign rows are added (an
// import never changes or deletes a row that is here), and the whole file goes in one transaction.
#include <sqlite3.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "kope/memory/memory.h"
#include "kope/memory/share.h"
#include "kope/memory/text.h"
#include "kope/base/sha256.h"
#include "kope/store/db.h"
#include "kope/base/text.h"

namespace kope::memory {

using nlohmann::json;
using store::Stmt;

namespace {

// Reads lines of at most kImportMaxLine bytes; a longer one is refused as soon as the limit is passed.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : sb_(in.rdbuf()) {}
  // False at the end of the input. `too_long` is set (and the rest of the line left unread) past the limit.
  bool next(std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    if (!sb_) return false;
    bool any = false;
    for (;;) {
      const auto c = sb_->sbumpc();
      if (c == std::char_traits<char>::eof()) return any;
      any = true;
      if (c == '\n') return true;
      if (line.size() >= kImportMaxLine) {
        too_long = true;
        return true;
      }
      line.push_back(static_cast<char>(c));
    }
  }

 private:
  std::streambuf* sb_;
};

bool is_hex(const std::string& s, std::size_t n) {
  if (s.size() != n) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A name that becomes part of a file name or a key: 1..max of letters, digits and `extra`, starting with a letter,
// digit or '_', never "..".
bool is_name(const std::string& s, std::size_t max, const char* extra) {
  if (s.empty() || s.size() > max || !(alnum(s[0]) || s[0] == '_') || s.find("..") != std::string::npos) return false;
  for (char c : s)
    if (!alnum(c) && (c == '\0' || !std::strchr(extra, c))) return false;
  return true;
}

// Validation of one line's JSON object; every failure names the file, the line and the field.
struct Line {
  std::string where;
  const json& j;

  [[noreturn]] void fail(const std::string& what) const { throw Error(where + ": " + what); }
  [[noreturn]] void bad(const char* k, const std::string& what) const {
    fail(std::string("field \"") + k + "\" " + what);
  }

  void only(std::initializer_list<const char*> allowed) const {
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool known = false;
      for (const char* k : allowed) known = known || it.key() == k;
      if (!known) fail("unknown field \"" + escape_terminal(it.key().substr(0, 64)) + "\"");
    }
  }
  const json* get(const char* k) const {
    auto it = j.find(k);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }
  // Any text: a string of at most `max` bytes without NUL (UTF-8 was checked on the whole line).
  std::string text(const char* k, std::size_t max, bool required = false) const {
    const json* v = get(k);
    if (!v) {
      if (required) bad(k, "is missing");
      return {};
    }
    if (!v->is_string()) bad(k, "must be a string");
    const auto& s = v->get_ref<const std::string&>();
    if (s.size() > max) bad(k, "is " + std::to_string(s.size()) + " bytes, more than " + std::to_string(max));
    if (s.find('\0') != std::string::npos) bad(k, "contains a NUL byte");
    return s;
  }
  // A one-line label (a kernel's name, a file path): no control characters, no bidi overrides.
  std::string label(const char* k, std::size_t max) const {
    std::string s = text(k, max, true);
    if (s.empty() || !is_terminal_safe(s) || s.find_first_of("\n\t") != std::string::npos)
      bad(k, "must be a non-empty line without control characters");
    return s;
  }
  std::string name(const char* k, std::size_t max, const char* extra, const char* what, bool required = true) const {
    std::string s = text(k, 4096, required);
    if (s.empty() && !required) return s;
    if (!is_name(s, max, extra)) bad(k, "\"" + escape_terminal(s.substr(0, 80)) + "\" is not " + what);
    return s;
  }
  std::string hex(const char* k, std::size_t n, bool required = true) const {
    std::string s = text(k, 4096, required);
    if (s.empty() && !required) return s;
    if (!is_hex(s, n)) bad(k, "must be " + std::to_string(n) + " lower-case hex digits");
    return s;
  }
  double number(const char* k, double lo, double hi) const {
    const json* v = get(k);
    if (!v || !v->is_number()) bad(k, "must be a number");
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi)
      bad(k, "must be a finite number in [" + json(lo).dump() + ", " + json(hi).dump() + "]");
    return x;
  }
  std::optional<double> opt_number(const char* k, double lo, double hi) const {
    if (!get(k)) return std::nullopt;
    return number(k, lo, hi);
  }
  std::optional<int64_t> integer(const char* k, int64_t lo, int64_t hi, bool required = true) const {
    const json* v = get(k);
    if (!v) {
      if (required) bad(k, "is missing");
      return std::nullopt;
    }
    if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(hi)) ||
        v->get<int64_t>() < lo || v->get<int64_t>() > hi)
      bad(k, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v->get<int64_t>();
  }
  bool boolean(const char* k, std::optional<bool> dflt = std::nullopt) const {
    const json* v = get(k);
    if (!v && dflt) return *dflt;
    if (!v || !v->is_boolean()) bad(k, "must be true or false");
    return v->get<bool>();
  }
};

constexpr const char* kWorkspaceIdChars = "-_";
constexpr const char* kTaskChars = "_.-";

std::string checked_workspace_id(const Line& L, const char* k) {
  return L.name(k, 64, kWorkspaceIdChars, "a workspace id (letters, digits, '-' and '_', at most 64)");
}

// "<origin>:<positive integer>", the form every Case's uid has.
void check_uid(const Line& L, const char* k, const std::string& uid, const std::string& origin) {
  const auto colon = uid.rfind(':');
  bool ok = colon != std::string::npos && colon + 1 < uid.size() && uid.size() - colon - 1 <= 18 &&
            uid[colon + 1] != '0';
  for (std::size_t i = colon == std::string::npos ? 0 : colon + 1; ok && i < uid.size(); ++i)
    ok = uid[i] >= '0' && uid[i] <= '9';
  if (!ok) L.bad(k, "\"" + escape_terminal(uid.substr(0, 120)) + "\" is not a case uid (WORKSPACE:NUMBER)");
  if (uid.compare(0, colon, origin) != 0)
    L.bad(k, "\"" + escape_terminal(uid.substr(0, 120)) + "\" is not a case of the workspace it names as origin (" +
                 origin + ")");
}

// Scalars, or objects of scalars, as a hardware fingerprint holds.
void check_fingerprint(const Line& L, const json& fp) {
  if (!fp.is_object() || fp.size() > 64) L.bad("fingerprint", "must be an object of at most 64 fields");
  for (auto it = fp.begin(); it != fp.end(); ++it) {
    if (!is_name(it.key(), 64, "_-.")) L.bad("fingerprint", "has a field that is not a name");
    const json& v = it.value();
    const bool nested = v.is_object() && v.size() <= 64;
    for (const auto& x : nested ? v : json::array({v})) {
      if (x.is_string() ? x.get_ref<const std::string&>().size() > 1024 || !is_terminal_safe(x.get<std::string>())
                        : !(x.is_boolean() || (x.is_number() && std::isfinite(x.get<double>()))))
        L.bad("fingerprint", "field \"" + it.key() + "\" must hold short lines of text or finite numbers");
    }
  }
}

// The input scene per case: [{"case", "inputs": [{"name","dtype","shape":[..]}], "outputs": [..], "attrs": {}}].
void check_scene(const Line& L, const json& scene) {
  auto fail = [&](const std::string& what) { L.bad("scene", what); };
  if (!scene.is_array() || scene.size() > 4096) fail("must be an array of at most 4096 cases");
  for (const auto& c : scene) {
    if (!c.is_object()) fail("must hold objects");
    for (auto it = c.begin(); it != c.end(); ++it)
      if (it.key() != "case" && it.key() != "inputs" && it.key() != "outputs" && it.key() != "attrs")
        fail("has an unknown field \"" + escape_terminal(it.key().substr(0, 64)) + "\"");
    if (!c.contains("case") || !c["case"].is_string() || !is_name(c["case"].get<std::string>(), 100, kTaskChars))
      fail("needs a case name per case");
    for (const char* io : {"inputs", "outputs"}) {
      if (!c.contains(io)) continue;
      const json& ts = c[io];
      if (!ts.is_array() || ts.size() > 256) fail(std::string(io) + " must be an array of at most 256 tensors");
      for (const auto& t : ts) {
        if (!t.is_object() || t.size() != 3 || !t.contains("name") || !t.contains("dtype") || !t.contains("shape") ||
            !t["name"].is_string() || !is_name(t["name"].get<std::string>(), 100, "_.") || !t["dtype"].is_string() ||
            !is_name(t["dtype"].get<std::string>(), 32, "_") || !t["shape"].is_array() || t["shape"].size() > 16)
          fail(std::string(io) + " must hold {name, dtype, shape} with names and at most 16 dimensions");
        for (const auto& d : t["shape"])
          if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > (int64_t{1} << 40))
            fail("a shape holds dimensions in [0, 2^40]");
      }
    }
    if (c.contains("attrs")) {
      const json& at = c["attrs"];
      if (!at.is_object() || at.size() > 256) fail("attrs must be an object of at most 256 numbers");
      for (auto it = at.begin(); it != at.end(); ++it)
        if (!is_name(it.key(), 100, "_.") || !it.value().is_number() || !std::isfinite(it.value().get<double>()))
          fail("attrs must map names to finite numbers");
    }
  }
}

std::vector<std::string> checked_tags(const Line& L) {
  std::vector<std::string> tags;
  const std::string all = L.text("tags", 4096);
  std::size_t i = 0;
  while (i < all.size()) {
    if (all[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t end = std::min(all.find(' ', i), all.size());
    tags.push_back(all.substr(i, end - i));
    if (!is_name(tags.back(), 40, "_-") || tags.size() > 64)
      L.bad("tags", "must be at most 64 words of letters, digits, '_' and '-' separated by spaces");
    i = end;
  }
  return tags;
}

bool is_timestamp(const std::string& s) {
  if (s.size() > 40) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '-' || c == ':' || c == '.' || c == 'T' || c == 'Z' || c == '+')) return false;
  return true;
}

// A case line, checked and turned into what is written; `prev_uid` and `origin` are resolved against the store.
struct CheckedCase {
  CaseInput in;
  std::string origin, prev_uid, hardware, source;
  json scene;
  std::vector<std::string> journal;
};

CheckedCase check_case(const Line& L) {
  L.only({"kind", "uid", "prev_uid", "origin", "task", "task_digest", "device", "hardware", "kernel_sha256",
          "kernel_name", "thought", "tags", "diff", "status", "compiled", "correct", "feedback", "a", "c", "interval_lo",
          "interval_hi", "run_id", "step", "created_at", "pruned", "flag", "source", "scene", "journal"});
  CheckedCase k;
  CaseInput& c = k.in;
  k.origin = checked_workspace_id(L, "origin");
  c.uid = L.text("uid", 200, true);
  check_uid(L, "uid", c.uid, k.origin);
  k.prev_uid = L.text("prev_uid", 200);
  if (!k.prev_uid.empty()) check_uid(L, "prev_uid", k.prev_uid, k.origin);
  c.task = L.name("task", 100, kTaskChars, "a task name (letters, digits, '_', '.' and '-', at most 100, no \"..\")");
  c.task_digest = L.hex("task_digest", 64, false);
  c.device = L.name("device", 200, "_.@:+-", "a device (letters, digits and _.@:+-, at most 200)");
  k.hardware = L.hex("hardware", 16, false);
  c.kernel_sha256 = L.hex("kernel_sha256", 64);
  c.kernel_name = L.label("kernel_name", 1024);
  c.thought = L.text("thought", kImportMaxText);
  c.tags = checked_tags(L);
  c.diff = L.text("diff", kImportMaxSource * 2);
  c.status = L.name("status", 40, "_", "a status (letters, digits and '_')");
  c.compiled = L.boolean("compiled");
  c.correct = L.boolean("correct");
  c.feedback = L.text("feedback", kImportMaxText);
  c.a = L.number("a", 0, 1e6);
  if (!c.correct && c.a != 0) L.bad("a", "must be 0 for an incorrect case");
  c.c = L.number("c", 0, 1);
  c.interval_lo = L.opt_number("interval_lo", 0, 1e6);
  c.interval_hi = L.opt_number("interval_hi", 0, 1e6);
  if (!c.interval_lo != !c.interval_hi || (c.interval_lo && *c.interval_lo > *c.interval_hi))
    L.bad("interval_lo", "and interval_hi must both be null or lo <= hi");
  c.run_id = L.integer("run_id", 1, int64_t{1} << 53, false);
  c.step = *L.integer("step", 0, 1000000000);
  c.created_at = L.text("created_at", 40);
  if (!is_timestamp(c.created_at)) L.bad("created_at", "must be a UTC timestamp like 2025-01-31T12:00:00.000Z");
  c.pruned = L.boolean("pruned", false);
  c.flag = L.text("flag", 16);
  if (!c.flag.empty() && c.flag != "cheat" && c.flag != "invalid") L.bad("flag", "must be \"\", cheat or invalid");
  k.source = L.text("source", kImportMaxSource);
  if (!k.source.empty() && sha256_hex(k.source) != c.kernel_sha256)
    L.bad("source", "does not hash to its kernel_sha256 " + c.kernel_sha256 + " (it hashes to " +
                        sha256_hex(k.source) + "): the source or the hash was changed");
  if (const json* s = L.get("scene")) {
    check_scene(L, *s);
    k.scene = *s;
  }
  if (const json* jr = L.get("journal")) {
    if (!jr->is_array() || jr->size() > 10000) L.bad("journal", "must be an array of at most 10000 Markdown texts");
    for (const auto& e : *jr) {
      if (!e.is_string() || e.get_ref<const std::string&>().size() > kImportMaxText ||
          e.get_ref<const std::string&>().find('\0') != std::string::npos)
        L.bad("journal", "must hold Markdown texts of at most " + std::to_string(kImportMaxText) + " bytes");
      k.journal.push_back(e.get<std::string>());
    }
  }
  return k;
}

std::string checked_header(const Line& L) {
  L.only({"kind", "schema", "workspace_id", "hardware", "exported_at", "cases"});
  if (L.text("kind", 64) != "kope-memory") L.fail("the first line must be the kope-memory header");
  const json* schema = L.get("schema");
  if (!schema || !schema->is_number_integer()) L.fail("header has no schema version");
  if (schema->get<int64_t>() != kExportSchema)
    L.fail("schema version " + schema->dump() + " is not supported (this kope reads " +
           std::to_string(kExportSchema) + ")");
  L.hex("hardware", 16, false);
  if (!is_timestamp(L.text("exported_at", 40))) L.bad("exported_at", "must be a UTC timestamp");
  L.integer("cases", 0, int64_t{1} << 53, false);
  return checked_workspace_id(L, "workspace_id");
}

// Parses one line after checking its size, UTF-8 and nesting, so nothing deeper than kImportMaxDepth is built.
json parse_line(const std::string& where, const std::string& line, bool too_long) {
  if (too_long)
    throw Error(where + ": longer than " + std::to_string(kImportMaxLine >> 20) + " MiB: not a memory export");
  if (!is_valid_utf8(line)) throw Error(where + ": not valid UTF-8: a memory export is UTF-8 text");
  if (!json_nesting_within(line, kImportMaxDepth))
    throw Error(where + ": nested deeper than " + std::to_string(kImportMaxDepth) + " levels: not a memory export");
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(where + ": not a JSON object (truncated or garbled?)");
  return j;
}

// The foreign memory_origins row of a workspace (added at its first Case).
int64_t origin_row(sqlite3* db, std::map<std::string, int64_t>& cache, const std::string& origin,
                   const std::string& device, const std::string& file) {
  if (auto it = cache.find(origin); it != cache.end()) return it->second;
  Stmt(db, "INSERT INTO memory_origins(workspace_id, device, hardware_id, file, imported_at) VALUES(?,?,NULL,?,?) "
           "ON CONFLICT(workspace_id) DO UPDATE SET file=excluded.file")
      .bind(1, origin).bind(2, device).bind(3, file).bind(4, store::now_utc()).run();
  Stmt q(db, "SELECT id FROM memory_origins WHERE workspace_id=?");
  q.bind(1, origin);
  q.step();
  return cache[origin] = q.i64(0);
}

// Writes one checked Case: foreign rows only. A source goes into `kernels` under the task key
// "memory-import:<task>", which no task can have (a task name has no ':'), so a local evaluation of the same text
// never finds the imported row, its name or its thought.
void write_case(MemoryStore& store, CheckedCase& k, int64_t origin_id) {
  sqlite3* db = store.db();
  CaseInput& c = k.in;
  c.origin_id = origin_id;
  if (!k.source.empty()) {
    const std::string key = "memory-import:" + c.task;
    Stmt(db, "INSERT INTO kernels(task, sha256, source, origin, thought, created_at) VALUES(?,?,?,?,?,?) "
             "ON CONFLICT(task, sha256) DO NOTHING")
        .bind(1, key).bind(2, c.kernel_sha256).bind(3, k.source).bind(4, "memory-import:" + k.origin + ":" + c.kernel_name)
        .bind(5, c.thought).bind(6, store::now_utc()).run();
    Stmt q(db, "SELECT id FROM kernels WHERE task=? AND sha256=?");
    q.bind(1, key).bind(2, c.kernel_sha256);
    if (q.step()) c.kernel_id = q.i64(0);
  }
  if (k.scene.is_array() && !c.task_digest.empty())
    Stmt(db, "INSERT INTO memory_scenes(task_digest, task, scene) VALUES(?,?,?) ON CONFLICT(task_digest) DO NOTHING")
        .bind(1, c.task_digest).bind(2, c.task).bind(3, k.scene.dump()).run();
  if (!k.journal.empty()) c.journal = k.journal.front();
  const int64_t id = store.add_case(c);
  for (std::size_t i = 1; i < k.journal.size(); ++i) store.append_journal(id, c.task, "import", k.journal[i]);
}

}  // namespace

bool json_nesting_within(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > max_depth) return false;
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return true;
}

ImportStats import_jsonl(MemoryStore& store, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("memory file '" + file.string() + "': cannot be read");
  sqlite3* db = store.db();
  ImportStats st;
  store::Txn txn(db);  // a bad line throws: the transaction rolls back and nothing is imported
  const std::string self = store.workspace_id();
  std::map<std::string, json> hardware;
  std::map<std::string, int64_t> origins;  // workspace id -> memory_origins id
  // Cases from this id on were added by this import: finding one again means a uid twice in the file.
  int64_t first_new = 0;
  {
    Stmt s(db, "SELECT COALESCE(MAX(id), 0) + 1 FROM memory_cases");
    s.step();
    first_new = s.i64(0);
  }
  LineReader lines(in);
  std::string line;
  bool too_long = false, header = false;
  int64_t n = 0;
  while (lines.next(line, too_long)) {
    ++n;
    const std::string where = "memory file '" + file.string() + "' line " + std::to_string(n);
    if (!too_long && line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json j = parse_line(where, line, too_long);
    const Line L{where, j};
    const std::string kind = L.text("kind", 64, true);
    if (!header) {
      if (kind != "kope-memory") L.fail("the first line must be the kope-memory header, found kind \"" + escape_terminal(kind) + "\"");
      st.origin = checked_header(L);
      header = true;
      continue;
    }
    if (kind == "hardware") {
      L.only({"kind", "digest", "fingerprint"});
      const std::string digest = L.hex("digest", 16);
      const json* fp = L.get("fingerprint");
      if (!fp) L.bad("fingerprint", "is missing");
      check_fingerprint(L, *fp);
      if (fingerprint_digest(*fp) != digest) L.bad("digest", "is not the digest of its fingerprint");
      if (hardware.size() >= 4096 && !hardware.count(digest)) L.fail("more than 4096 hardware lines");
      Stmt h(db, "SELECT fingerprint FROM memory_hardware WHERE digest=?");
      h.bind(1, digest);
      if (h.step() && h.text(0) != fp->dump())
        L.bad("fingerprint", "differs from the fingerprint " + digest + " already here");
      hardware[digest] = *fp;
      continue;
    }
    if (kind != "case") L.fail("unknown line kind \"" + escape_terminal(kind.substr(0, 64)) + "\"");
    CheckedCase k = check_case(L);
    CaseInput& c = k.in;
    if (auto here = store.case_by_uid(c.uid)) {
      if (*here >= first_new) L.bad("uid", c.uid + " appears twice in the file");
      ++st.skipped;  // already here, local or imported before: never changed
      continue;
    }
    if (k.origin == self) L.fail("case " + c.uid + " comes from this workspace but is not in it");
    if (!k.hardware.empty()) {
      auto it = hardware.find(k.hardware);
      if (it == hardware.end()) L.bad("hardware", k.hardware + " is not declared on a hardware line before the case");
      c.hardware = it->second;
    } else {
      c.hardware = json::object();
    }
    if (!k.prev_uid.empty()) {
      c.prev_case_id = store.case_by_uid(k.prev_uid);
      if (!c.prev_case_id)
        L.bad("prev_uid", "case " + k.prev_uid + " is neither earlier in the file nor here");
    }
    write_case(store, k, origin_row(db, origins, k.origin, c.device, file.string()));
    ++st.added;
  }
  if (in.bad()) throw Error("memory file '" + file.string() + "': read error");
  if (!header) throw Error("memory file '" + file.string() + "' is empty: no kope-memory header");
  txn.commit();
  return st;
}

}  // namespace kope::memory

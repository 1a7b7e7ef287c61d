// A memory import as a way in: forged hashes, sources claimed for local kernels, names that are paths, deep
// nesting, huge lines, invalid UTF-8, control bytes, out-of-range numbers, uid collisions, duplicated and truncated
// files, and randomly mutated exports. An import either adds valid foreign rows or fails with nothing written; it
// never changes a local row, never writes outside a folder, and nothing it carries reaches a terminal raw.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/base/error.h"
#include "kope/memory/memory.h"
#include "kope/memory/share.h"
#include "kope/memory/text.h"
#include "kope/base/sha256.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::workspace;
using namespace kope::cli;

namespace kope {
namespace {

namespace fs = std::filesystem;
using memory::MemoryStore;
using nlohmann::json;
using test::TempDir;

const std::string kOrigin = "0b5e7c1e-1111-4222-8333-944455556666";
const std::string kEvil = "// thought: evil\nextern \"C\" int kope_kernel() { return 0; }\n";

int64_t count(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  int64_t v = -1;
  if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

std::string text_of(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::string v;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    v.assign(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), sqlite3_column_bytes(st, 0));
  sqlite3_finalize(st);
  return v;
}

json header(const std::string& origin = kOrigin) {
  return {{"kind", "kope-memory"}, {"schema", memory::kExportSchema}, {"workspace_id", origin},
          {"exported_at", "2026-01-01T00:00:00.000Z"}, {"cases", 1}};
}

// A valid foreign case line, as export_jsonl writes one.
json case_line(int n = 1, const std::string& task = "affine", const std::string& source = kEvil) {
  return {{"kind", "case"}, {"uid", kOrigin + ":" + std::to_string(n)}, {"prev_uid", nullptr}, {"origin", kOrigin},
          {"task", task}, {"task_digest", sha256_hex(task)}, {"device", "cpu"}, {"hardware", ""},
          {"kernel_sha256", sha256_hex(source)}, {"kernel_name", "/home/x/kernels/affine_v1.cpp"},
          {"thought", "vectorise the loop"}, {"tags", "vectorize"}, {"diff", ""}, {"status", "passed"},
          {"compiled", true}, {"correct", true}, {"feedback", "correct on all 3 cases"}, {"a", 2.5}, {"c", 0.9},
          {"interval_lo", 2.4}, {"interval_hi", 2.6}, {"run_id", 1}, {"step", 1},
          {"created_at", "2026-01-01T00:00:00.000Z"}, {"pruned", false}, {"flag", ""}, {"source", source},
          {"scene", nullptr}, {"journal", json::array({"## Case 1 · affine"})}};
}

class ImportTest : public ::testing::Test {
 protected:
  TempDir dir;
  Workspace ws = Workspace::open(dir / "ws");
  MemoryStore mem{ws.handle()};

  // A local Case of the affine task, passed, with `thought`: what no import may change.
  int64_t add_local_case(const std::string& thought) {
    memory::CaseInput in;
    in.task = "affine";
    in.task_digest = sha256_hex("affine");
    in.device = "cpu";
    in.kernel_sha256 = sha256_hex("k");
    in.kernel_name = "k.cpp";
    in.thought = thought;
    in.status = "passed";
    in.compiled = in.correct = true;
    in.a = 2;
    return mem.add_case(in);
  }

  fs::path write_lines(const std::vector<std::string>& lines, const std::string& name = "in.jsonl") {
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    test::write_text(dir / name, text);
    return dir / name;
  }
  fs::path write_json(const std::vector<json>& lines) {
    std::vector<std::string> s;
    for (const auto& l : lines) s.push_back(l.dump());
    return write_lines(s);
  }
  // The import's error; "" when it succeeded.
  std::string import_error(const fs::path& file) {
    try {
      memory::import_jsonl(mem, file);
      return "";
    } catch (const Error& e) {
      return e.what();
    }
  }
  int64_t cases() { return mem.count_cases(); }
  struct Cli {
    int code;
    std::string out, err;
  };
  Cli cli(std::vector<std::string> args) {
    args.push_back("--workspace");
    args.push_back((dir / "ws").string());
    std::ostringstream out, err;
    const int code = run_cli(args, out, err);
    return {code, out.str(), err.str()};
  }
};

void expect_fails(const std::string& err, const std::string& what) {
  EXPECT_NE(err.find(what), std::string::npos) << "expected \"" << what << "\" in: " << err;
}

TEST_F(ImportTest, AValidForeignCaseImports) {
  const auto st = memory::import_jsonl(mem, write_json({header(), case_line()}));
  EXPECT_EQ(st.added, 1);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM kernels WHERE task='memory-import:affine'"), 1);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM kernels WHERE task='affine'"), 0)
      << "an imported source is kept apart from the task's local kernels";
}

TEST_F(ImportTest, AForgedSourceHashIsRefusedAndTheLocalSourceStaysIntact) {
  const std::string honest = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  // The claimed hash is the honest kernel's, the text is not: refused, nothing written.
  json forged = case_line();
  forged["kernel_sha256"] = sha256_hex(honest);
  const std::string err = import_error(write_json({header(), forged}));
  expect_fails(err, "line 2: field \"source\" does not hash to its kernel_sha256");
  EXPECT_EQ(cases(), 0);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM kernels"), 0);
  // The same hash claimed for a kernel that is already here, with another text: refused; the local row unchanged.
  const int64_t local = ws.add_kernel("affine", honest, "/local/affine.cpp", "the honest one");
  EXPECT_NE(import_error(write_json({header(), forged})), "");
  EXPECT_EQ(ws.kernel_source(local), honest);
  // A valid import of another text under the same task, then an honest evaluation stores and finds its own text.
  ASSERT_EQ(import_error(write_json({header(), case_line()})), "");
  const int64_t again = ws.add_kernel("affine", kEvil, "/local/evil-looking.cpp", "local thought");
  EXPECT_EQ(ws.kernel_source(again), kEvil);
  EXPECT_EQ(text_of(ws.handle(), "SELECT origin FROM kernels WHERE id=" + std::to_string(again)),
            "/local/evil-looking.cpp")
      << "the local evaluation's name, not the import's";
}

TEST_F(ImportTest, ARowAnOlderImportPlantedIsTakenBackByTheLocalEvaluation) {
  // What an import did before sources were checked: a row under the task's own name with another text.
  const std::string honest = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  sqlite3* db = ws.handle();
  ASSERT_EQ(sqlite3_exec(db,
                         ("INSERT INTO kernels(task, sha256, source, origin, thought, created_at) VALUES('affine','" +
                          sha256_hex(honest) + "','evil','memory-import:x:y','planted','now')").c_str(),
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  const int64_t id = ws.add_kernel("affine", honest, "/local/affine.cpp", "the honest one");
  EXPECT_EQ(ws.kernel_source(id), honest);
  EXPECT_EQ(text_of(db, "SELECT thought FROM kernels WHERE id=" + std::to_string(id)), "the honest one");
  // A row changed outside kope (not an import's) is never evaluated.
  ASSERT_EQ(sqlite3_exec(db, ("UPDATE kernels SET source='tampered' WHERE id=" + std::to_string(id)).c_str(), nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  EXPECT_THROW(ws.add_kernel("affine", honest, "/local/affine.cpp", ""), Error);
}

TEST_F(ImportTest, NamesAreNamesAndUidsBelongToTheirOrigin) {
  auto refused = [&](const char* field, const json& value, const std::string& what) {
    json c = case_line();
    c[field] = value;
    const std::string err = import_error(write_json({header(), c}));
    expect_fails(err, "line 2: field \"" + std::string(field) + "\"");
    expect_fails(err, what);
    EXPECT_EQ(cases(), 0);
  };
  refused("task", "../../x", "not a task name");
  refused("task", "a/b", "not a task name");
  refused("task", "x\x1b[2J", "not a task name");
  refused("task", std::string(101, 'a'), "not a task name");
  refused("device", "cpu\n", "not a device");
  refused("kernel_name", "k\x1b]0;title\x07", "without control characters");
  refused("kernel_name", "k\xe2\x80\xae" "cod.exe", "without control characters");  // U+202E
  refused("tags", "vectorize ../x", "at most 64 words");
  refused("status", "passed\r", "not a status");
  refused("kernel_sha256", std::string(64, 'A'), "lower-case hex");
  refused("task_digest", "abc", "lower-case hex");
  refused("uid", "someone-else:1", "not a case of the workspace");
  refused("uid", kOrigin + ":0", "not a case uid");
  refused("uid", kOrigin + ":1/../2", "not a case uid");
  refused("prev_uid", "other:1", "not a case of the workspace");
  refused("origin", "../x", "not a workspace id");
  refused("flag", "pinned", "must be \"\", cheat or invalid");
  refused("created_at", "now; DROP", "UTC timestamp");
  refused("thought", std::string("a\0b", 3), "NUL");
  json unknown = case_line();
  unknown["pinned"] = true;
  expect_fails(import_error(write_json({header(), unknown})), "unknown field \"pinned\"");
  json kind = case_line();
  kind["kind"] = "evaluation";
  expect_fails(import_error(write_json({header(), kind})), "unknown line kind \"evaluation\"");
}

TEST_F(ImportTest, NumbersAreFiniteAndInRange) {
  auto refused = [&](const std::string& patch, const std::string& what) {
    std::string line = case_line().dump();
    const auto at = line.find("\"a\":2.5");
    ASSERT_NE(at, std::string::npos);
    line.replace(at, 7, patch);
    expect_fails(import_error(write_lines(std::vector<std::string>{header().dump(), line})), what);
    EXPECT_EQ(cases(), 0);
  };
  refused("\"a\":1e308", "field \"a\" must be a finite number");
  refused("\"a\":1e999", "line 2");  // inf: refused by the parser or the range
  refused("\"a\":NaN", "not a JSON object");
  refused("\"a\":-1", "field \"a\"");
  refused("\"a\":\"2.5\"", "field \"a\" must be a number");
  refused("\"a\":true", "field \"a\" must be a number");
  json c = case_line();
  c["c"] = 1.5;
  expect_fails(import_error(write_json({header(), c})), "field \"c\"");
  c = case_line();
  c["step"] = 1.5;
  expect_fails(import_error(write_json({header(), c})), "field \"step\" must be an integer");
  c = case_line();
  c["run_id"] = 18446744073709551615ull;
  expect_fails(import_error(write_json({header(), c})), "field \"run_id\"");
  c = case_line();
  c["correct"] = false;
  expect_fails(import_error(write_json({header(), c})), "must be 0 for an incorrect case");
  c = case_line();
  c["interval_lo"] = 3.0;
  expect_fails(import_error(write_json({header(), c})), "interval_hi");
}

TEST_F(ImportTest, DeepNestingHugeLinesAndInvalidUtf8AreRefusedBeforeParsing) {
  // 100000 levels: nlohmann parses that, but copying or dumping it overflows the stack.
  const std::string deep = "{\"kind\":\"case\",\"scene\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  std::string err = import_error(write_lines(std::vector<std::string>{header().dump(), deep}));
  expect_fails(err, "line 2: nested deeper than");
  // Brackets inside strings do not count.
  json brackets = case_line();
  brackets["thought"] = std::string(1000, '[');
  EXPECT_EQ(import_error(write_json({header(), brackets})), "");
  // A 100 MB line: refused once the limit is passed, without building a JSON value of it.
  {
    std::ofstream f(dir / "huge.jsonl", std::ios::binary);
    f << header().dump() << "\n{\"kind\":\"case\",\"thought\":\"";
    const std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 100; ++i) f << chunk;
    f << "\"}\n";
  }
  // (No wall-clock bound here: a timed assertion fails on a loaded machine or under the sanitizers.)
  err = import_error(dir / "huge.jsonl");
  expect_fails(err, "line 2: longer than 32 MiB");
  // Invalid UTF-8 anywhere in a line.
  std::string bad = case_line(2).dump();
  bad.replace(bad.find("vectorise"), 1, "\xff");
  expect_fails(import_error(write_lines(std::vector<std::string>{header().dump(), bad})), "line 2: not valid UTF-8");
  EXPECT_EQ(cases(), 1) << "only the valid import with brackets in a string";
}

TEST_F(ImportTest, CollisionsDuplicatesAndTruncationWriteNothing) {
  const int64_t local = add_local_case("the local thought");
  const std::string self = mem.workspace_id();
  const std::string local_uid = mem.get_case(local)->uid;
  // A line naming this workspace as origin and a local uid: skipped, the local Case unchanged.
  json mine = case_line();
  mine["origin"] = self;
  mine["uid"] = local_uid;
  mine["thought"] = "rewritten";
  auto st = memory::import_jsonl(mem, write_json({header(self), mine}));
  EXPECT_EQ(st.added, 0);
  EXPECT_EQ(st.skipped, 1);
  EXPECT_EQ(mem.get_case(local)->thought, "the local thought");
  // A foreign case may not start from a local one (its prev_uid must be of its own origin).
  json child = case_line();
  child["prev_uid"] = local_uid;
  expect_fails(import_error(write_json({header(), child})), "field \"prev_uid\"");
  EXPECT_EQ(mem.get_case(local)->d, mem.get_case(local)->r * memory::GraphWeights{}.w_self);
  // The same uid twice in one file.
  expect_fails(import_error(write_json({header(), case_line(1), case_line(1)})), "line 3: field \"uid\"");
  // A bad last line: the valid lines before it are not written either.
  json last = case_line(3);
  last["a"] = -5;
  expect_fails(import_error(write_json({header(), case_line(1), case_line(2), last})), "line 4");
  std::string cut = case_line(4).dump();
  cut.resize(cut.size() / 2);
  expect_fails(import_error(write_lines(std::vector<std::string>{header().dump(), case_line(1).dump(), cut})),
               "line 3: not a JSON object");
  EXPECT_EQ(cases(), 1);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM memory_origins"), 0);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM kernels"), 0);
}

TEST_F(ImportTest, AnImportCannotMakeALocalKernelSkippedOrALocalSceneWrong) {
  json failed = case_line();
  failed["correct"] = false;
  failed["a"] = 0;
  failed["status"] = "wrong";
  failed["scene"] = json::array({{{"case", "small"}, {"inputs", json::array()}, {"outputs", json::array()}}});
  ASSERT_EQ(import_error(write_json({header(), failed})), "");
  EXPECT_TRUE(mem.known_failures("affine", "cpu").empty()) << "failed elsewhere is not failed here";
  const json real = json::array({{{"case", "real"}, {"inputs", json::array()}, {"outputs", json::array()}}});
  mem.note_scene("affine", sha256_hex("affine"), real);
  EXPECT_EQ(text_of(ws.handle(), "SELECT scene FROM memory_scenes"), real.dump());
}

TEST_F(ImportTest, AFingerprintPlantedUnderALocalDigestIsReplacedAndNeverConfirmed) {
  // The digest is 64 bits of FNV-1a: a colliding fingerprint can be forged. Planted directly (as a forged import
  // would have): the local Case's own fingerprint replaces it, and an import naming the digest with another
  // fingerprint than the one stored is refused.
  const json real = {{"cpu_model", "real"}, {"cores", 8}};
  const std::string digest = memory::fingerprint_digest(real);
  store::Stmt(ws.handle(), "INSERT INTO memory_hardware(digest, fingerprint) VALUES(?, ?)")
      .bind(1, digest).bind(2, json{{"cpu_model", "planted"}}.dump()).run();
  memory::CaseInput in;
  in.task = "affine";
  in.device = "cpu";
  in.kernel_sha256 = sha256_hex("k");
  in.kernel_name = "k.cpp";
  in.status = "passed";
  in.compiled = in.correct = true;
  in.a = 2;
  in.hardware = real;
  const int64_t local = mem.add_case(in);
  EXPECT_EQ(mem.get_case(local)->hardware, real);
  store::Stmt(ws.handle(), "UPDATE memory_hardware SET fingerprint=? WHERE digest=?")
      .bind(1, json{{"cpu_model", "planted"}}.dump()).bind(2, digest).run();
  json hw = {{"kind", "hardware"}, {"digest", digest}, {"fingerprint", real}};
  json c = case_line();
  c["hardware"] = digest;
  expect_fails(import_error(write_json({header(), hw, c})), "line 2: field \"fingerprint\" differs from the fingerprint");
}

TEST_F(ImportTest, ControlBytesFromAnImportNeverReachTheTerminal) {
  const std::string hostile = "\x1b]0;pwned\x07\x1b[2J\rresult: passed\n\xc2\x9b" "31m \xe2\x80\xae" "gnp.exe";
  json c = case_line();
  c["thought"] = "vectorise " + hostile;
  c["feedback"] = hostile;
  c["journal"] = json::array({"## Case 1\n" + hostile});
  ASSERT_EQ(import_error(write_json({header(), c})), "");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"memory", "cases"}, {"memory", "show", "1"}, {"memory", "journal"},
                                             {"memory", "retrieve", "--task", "affine"}, {"memory", "graph"},
                                             {"memory", "show", "1", "--json"}, {"memory", "export", "-"}}) {
    const Cli r = cli(args);
    ASSERT_EQ(r.code, 0) << args[1] << ": " << r.err;
    for (const std::string& raw : {std::string("\x1b"), std::string("\x07"), std::string("\r"),
                                   std::string("\xc2\x9b"), std::string("\xe2\x80\xae")})
      EXPECT_EQ((r.out + r.err).find(raw), std::string::npos) << args[1] << " " << args.back() << ":\n" << r.out;
  }
  const Cli shown = cli({"memory", "show", "1"});
  EXPECT_NE(shown.out.find("\\u001b]0;pwned\\u0007\\u001b[2J\\u000dresult: passed"), std::string::npos) << shown.out;
  // JSON stays JSON, and reads back the very text that was imported.
  const Cli j = cli({"memory", "show", "1", "--json"});
  EXPECT_EQ(json::parse(j.out)["feedback"], hostile);
  // The journal exported to files keeps the text as it is.
  ASSERT_EQ(cli({"memory", "journal", "--export", (dir / "md").string()}).code, 0);
  std::ifstream f(dir / "md" / "affine.md", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find(hostile), std::string::npos);
}

TEST_F(ImportTest, JournalExportStaysInItsFolderWhateverTheTaskName) {
  // Task names written into the database directly, not through an import (which refuses them).
  sqlite3* db = ws.handle();
  for (const char* t : {"../../x", "/etc/passwd", "..", "a/../../b", "", ".hidden", "x", "x"})
    ASSERT_EQ(sqlite3_exec(db,
                           (std::string("INSERT INTO memory_journal(case_id, task, kind, created_at, markdown) "
                                        "VALUES(NULL, '") + t + "', 'attempt', 'now', 'entry of " + t + "')").c_str(),
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
  const fs::path out = dir / "deep" / "md";
  const Cli r = cli({"memory", "journal", "--export", out.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
    if (!e.is_regular_file() || e.path().extension() != ".md") continue;
    EXPECT_EQ(e.path().parent_path(), out) << e.path();
    ++files;
  }
  EXPECT_EQ(files, 7) << "one file per distinct task name";
  EXPECT_TRUE(fs::exists(out / "x.md"));
  EXPECT_FALSE(fs::exists(dir / "x.md"));
  EXPECT_FALSE(fs::exists(dir / "deep" / "x.md"));
}

// Random mutations of a valid export: every import either adds valid rows or fails with kope::Error; none
// crashes, none writes a kernel whose text is not its hash, none changes the local Case.
TEST_F(ImportTest, MutatedExportsNeverCrashOrCorrupt) {
  const int64_t local = add_local_case("local");
  const std::string local_row = json(mem.get_case(local)->thought).dump() + std::to_string(mem.get_case(local)->d);
  json hw = {{"kind", "hardware"}, {"fingerprint", {{"cpu_model", "x"}, {"cores", 4}, {"caches", {{"L1d", "32K"}}}}}};
  hw["digest"] = memory::fingerprint_digest(hw["fingerprint"]);
  json c2 = case_line(2), c3 = case_line(3, "relu", "int relu;\n");
  c2["prev_uid"] = kOrigin + ":1";
  c2["hardware"] = hw["digest"];
  c3["scene"] = json::array({{{"case", "s"}, {"inputs", json::array({{{"name", "x"}, {"dtype", "f32"}, {"shape", {4, 4}}}})}}});
  const std::vector<std::string> base = {header().dump(), hw.dump(), case_line(1).dump(), c2.dump(), c3.dump()};
  std::mt19937 g(1234);
  const std::string specials[] = {"{", "}", "[", "]", "\"", "\\", ":", ",", "\x1b", "\xff", "\xc3", "0", "-1",
                                  "1e999", "null", "true", "../", "\n", "\\u0000", "\\ud800", std::string(40, '[')};
  int imported = 0, refused = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<std::string> lines = base;
    const int edits = 1 + static_cast<int>(g() % 4);
    for (int e = 0; e < edits; ++e) {
      std::string& l = lines[g() % lines.size()];
      const std::size_t at = l.empty() ? 0 : g() % l.size();
      switch (g() % 5) {
        case 0: l.insert(at, specials[g() % std::size(specials)]); break;
        case 1: l.erase(at, 1 + g() % 8); break;
        case 2: if (!l.empty()) l[at] = static_cast<char>(g() % 256); break;
        case 3: l = l.substr(0, at); break;
        default: lines.push_back(lines[g() % lines.size()]); break;
      }
    }
    try {
      memory::import_jsonl(mem, write_lines(lines));
      ++imported;
    } catch (const Error&) {
      ++refused;
    }
  }
  // Values replaced field by field in valid JSON: every checker sees wrong types, sizes and contents.
  const std::vector<json> values = {nullptr, true, 0, -1, 1e308, 18446744073709551615ull, 0.5, "", "../../x",
                                    "x\u001b[2J", std::string(70, 'a'), sha256_hex("x"), kOrigin + ":9",
                                    json::array(), json::array({1, "a", nullptr}), json::object(),
                                    {{"case", "s"}, {"inputs", {{{"name", 1}}}}}, std::string("\0", 1)};
  for (int iter = 0; iter < 600; ++iter) {
    std::vector<json> lines;
    for (const auto& l : base) lines.push_back(json::parse(l));
    for (int e = 0, edits = 1 + static_cast<int>(g() % 3); e < edits; ++e) {
      json& l = lines[g() % lines.size()];
      auto it = std::next(l.begin(), static_cast<long>(g() % l.size()));
      *it = values[g() % values.size()];
    }
    try {
      memory::import_jsonl(mem, write_json(lines));
      ++imported;
    } catch (const Error&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_EQ(json(mem.get_case(local)->thought).dump() + std::to_string(mem.get_case(local)->d), local_row);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(ws.handle(), "SELECT sha256, source FROM kernels", -1, &st, nullptr), SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const std::string sha = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    const std::string src(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)), sqlite3_column_bytes(st, 1));
    EXPECT_EQ(sha256_hex(src), sha);
  }
  sqlite3_finalize(st);
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM kernels WHERE task NOT LIKE 'memory-import:%'"), 0);
  std::cout << "mutated exports: " << imported << " imported, " << refused << " refused\n";
}

}  // namespace
}  // namespace kope
